# syntax=docker/dockerfile:1
# Node 24, the newest LTS line (Krypton), pinned to an exact release. Pin the digest too where the registry
# is reachable (NODE_IMAGE=node:24.21.0-bookworm-slim@sha256:…); where it is not, a local image built by
# scripts/container/standin-base.sh stands in (docs/operations.md#container-image).
ARG NODE_IMAGE=node:24.21.0-bookworm-slim

FROM ${NODE_IMAGE} AS build
# Only where npm reaches the registry through a TLS-inspecting proxy: its CA bundle, inside the base image.
ARG NODE_EXTRA_CA_CERTS
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
# Every directory scripts/build.mjs compiles into what the runtime stage copies (test/deploy/dockerfile.e2e-spec.ts
# builds with these lines and starts the result): the service, the operator commands, the migrations.
COPY src ./src
COPY cli ./cli
COPY migrations ./migrations
COPY scripts ./scripts
# swc, as `npm run build` (scripts/build.mjs); the type check is CI's (`npm run lint`).
RUN node scripts/build.mjs && rm -f dist/.built

FROM ${NODE_IMAGE} AS runtime
ARG NODE_EXTRA_CA_CERTS
ENV NODE_ENV=production PORT=5000 HOST=0.0.0.0 DATA_DIR=/data MIGRATIONS_OUT_DIR=/migrations
# As in `npm start`: scrypt's 16 MiB buffers are unmapped when freed instead of staying in each
# libuv thread's malloc arena (about 16 MiB of RSS per thread that ever hashed a password).
ENV GLIBC_TUNABLES=glibc.malloc.mmap_threshold=131072
WORKDIR /app
COPY package.json package-lock.json ./
# Production dependencies only. The embedded database (PGlite) is for development: it is removed,
# and production refuses to start without DATABASE_URL anyway; the check fails the build if it stays.
RUN npm ci --omit=dev --no-audit --no-fund \
 && rm -rf node_modules/@electric-sql \
 && npm cache clean --force \
 && ! node -e "require.resolve('@electric-sql/pglite')" 2>/dev/null
COPY --from=build /app/dist ./dist
# One executable for the operator commands: `tollgate keys:rotate`, `tollgate client:migration`, …
# Extensions (TOLLGATE_EXTENSIONS, e.g. a mounted /extensions; docs/extending.md) get `tollgate` and the
# service's own @nestjs/common, @nestjs/core and class-validator from the service itself: no NODE_PATH.
RUN chmod 0755 dist/cli/tollgate.js && ln -s /app/dist/cli/tollgate.js /usr/local/bin/tollgate \
 && mkdir -p /data /migrations && chown node:node /data /migrations
# The sign-in pages' templates and stylesheet (docs/browser-sign-in.md#pages).
COPY views ./views
USER node
VOLUME ["/data"]
EXPOSE 5000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||5000)+'/health/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
STOPSIGNAL SIGTERM
CMD ["node", "--max-semi-space-size=4", "--heap-growing-percent=50", "dist/src/main.js"]
