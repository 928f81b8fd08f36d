#!/usr/bin/env bash
# Builds the container image and smoke-tests it against a real PostgreSQL: migrations, discovery, a
# token, health, an extension grant mounted at /extensions (TOLLGATE_EXTENSIONS), the operator
# commands (no compiler in the image), the production refusals, PGlite absent, a non-root user, and
# exit code 0 on SIGTERM. Uses docker when a daemon answers, else
# buildah + podman (no daemon; vfs storage, chroot isolation). docs/operations.md#container-image
#
#   scripts/container-check.sh
#   env: DATABASE_URL  an admin URL on which a scratch database is created (default postgresql://postgres@127.0.0.1:5432/postgres)
#        NODE_IMAGE    the base image (default: the Dockerfile's; here e.g. localhost/node:24.21.0-bookworm-slim)
#        CHECK_PORT, CHECK_METRICS_PORT  the ports the container listens on, on the host network (default: free ones)
#        CHECK_DATABASE  the scratch database's name, created and dropped (default tollgate_container_check_<pid>; must not exist)
#        IMAGE         the tag to build (default localhost/tollgate:check)
#        SKIP_BUILD    non-empty: check the image already built under IMAGE (podman)
#        NODE_EXTRA_CA_CERTS  passed to the build, for npm behind a TLS-inspecting proxy (a path inside the base image)
set -euo pipefail
cd "$(dirname "$0")/.."
ADMIN_URL=${DATABASE_URL:-postgresql://postgres@127.0.0.1:5432/postgres}
IMAGE=${IMAGE:-localhost/tollgate:check}
NAME=tollgate-check-$$
step() { printf '\n== %s\n' "$*"; }
fail() { printf 'FAILED: %s\n' "$*" >&2; exit 1; }

if command -v docker >/dev/null && docker info >/dev/null 2>&1; then
  engine=(docker)
  build() { docker build ${NODE_IMAGE:+--build-arg NODE_IMAGE="$NODE_IMAGE"} ${NODE_EXTRA_CA_CERTS:+--build-arg NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"} -t "$IMAGE" .; }
  run=(docker run --network host)
else
  command -v buildah >/dev/null && command -v podman >/dev/null || fail 'neither a docker daemon nor buildah + podman'
  storage=(--storage-driver "${CONTAINER_STORAGE_DRIVER:-vfs}")
  engine=(podman "${storage[@]}")
  build() {
    buildah "${storage[@]}" bud --pull=never --isolation chroot --format docker --layers=false \
      ${NODE_IMAGE:+--build-arg NODE_IMAGE="$NODE_IMAGE"} ${NODE_EXTRA_CA_CERTS:+--build-arg NODE_EXTRA_CA_CERTS="$NODE_EXTRA_CA_CERTS"} -t "$IMAGE" .
  }
  run=(podman "${storage[@]}" --runtime runc --cgroup-manager cgroupfs run --net host
    --ulimit nofile=4096:4096 --ulimit nproc=4096:4096)
fi

if [ -n "${SKIP_BUILD:-}" ] && "${engine[@]}" image exists "$IMAGE" 2>/dev/null; then
  step "SKIP_BUILD: checking the existing $IMAGE"
else
  step "build $IMAGE with ${engine[0]}"
  started=$(date +%s)
  build
  echo "built in $(( $(date +%s) - started )) s"
fi

step 'a scratch database'
DB=${CHECK_DATABASE:-tollgate_container_check_$$}
[[ $DB =~ ^[a-z_][a-z0-9_]{0,62}$ ]] || fail "CHECK_DATABASE $DB: lower-case letters, digits and _ only"
free_port() { node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }
PORT=${CHECK_PORT:-$(free_port)}
METRICS=${CHECK_METRICS_PORT:-$(free_port)}
[ "$PORT" != "$METRICS" ] || fail "CHECK_PORT and CHECK_METRICS_PORT are both $PORT"
echo "database $DB, port $PORT, metrics port $METRICS"
node -e "const {Client}=require('pg');(async()=>{const c=new Client({connectionString:process.argv[1]});await c.connect();await c.query('CREATE DATABASE $DB');await c.end()})().catch(e=>{console.error(e.message);process.exit(1)})" "$ADMIN_URL"
DB_URL=$(node -e "const u=new URL(process.argv[1]);u.pathname='/$DB';console.log(u.toString())" "$ADMIN_URL")
KEK=$(node -e "console.log(require('crypto').randomBytes(32).toString('base64'))")
OUT=$(mktemp -d); chmod 0777 "$OUT"
cleanup() {
  "${engine[@]}" rm -f "$NAME" >/dev/null 2>&1 || true
  node -e "const {Client}=require('pg');(async()=>{const c=new Client({connectionString:process.argv[1]});await c.connect();await c.query('DROP DATABASE IF EXISTS $DB WITH (FORCE)');await c.end()})()" "$ADMIN_URL" || true
  rm -rf "$OUT"
}
trap cleanup EXIT
# ALLOW_DEMO_DATA: a test bench, so the smoke test has a client to ask for a token.
ENV_ARGS=(-e DATABASE_URL="$DB_URL" -e ISSUER=https://tollgate.check -e PORT="$PORT" -e METRICS_PORT="$METRICS"
  -e KEY_ENCRYPTION_KEY="$KEK" -e SEED_DEMO=true -e ALLOW_DEMO_DATA=true -e SHUTDOWN_DRAIN_SECONDS=1)
# The extension of examples/extensions, mounted read-only as an operator would (docs/extending.md#3-a-container-extension).
PARTNER_GRANT=urn:example:params:oauth:grant-type:partner-api-key
PARTNER_API_KEY=$(node -e "console.log(require('crypto').randomBytes(24).toString('base64url'))")
PARTNER_KEYS=$(node -e "const h=require('crypto').createHash('sha256').update(process.argv[1]).digest('hex');console.log(JSON.stringify({[h]:'1'}))" "$PARTNER_API_KEY")
PARTNER_SECRET=$(node -e "console.log(require('crypto').randomBytes(24).toString('base64url'))")
EXTENSION_ARGS=(-v "$PWD/examples/extensions:/extensions:ro" -e TOLLGATE_EXTENSIONS=/extensions/partner-key.js -e PARTNER_KEYS="$PARTNER_KEYS")

step 'production refusals: no DATABASE_URL, an http ISSUER'
set +e
refusal=$("${run[@]}" --rm "$IMAGE" 2>&1); code=$?
set -e
echo "$refusal"
[ "$code" = 1 ] || fail "expected exit code 1 without DATABASE_URL, got $code"
grep -q 'DATABASE_URL must be set when NODE_ENV=production' <<<"$refusal" || fail 'no DATABASE_URL refusal'
grep -q 'ALLOW_INSECURE_ISSUER=true overrides this' <<<"$refusal" || fail 'no ISSUER refusal'

step 'the image: user, PGlite, node version, size'
"${run[@]}" --rm "$IMAGE" sh -c 'echo "uid $(id -u) ($(id -un)), node $(node --version)"; test "$(id -u)" != 0'
"${run[@]}" --rm "$IMAGE" node -e "require.resolve('@electric-sql/pglite')" 2>/dev/null && fail 'PGlite is in the image'
echo 'PGlite: not in the image'
"${engine[@]}" image inspect --format '{{.Size}}' "$IMAGE" | awk '{printf "image size: %d bytes (%.1f MiB)\n", $1, $1/1048576}'
"${engine[@]}" image inspect --format '{{json .Config.Healthcheck}} volumes={{json .Config.Volumes}} user={{.Config.User}}' "$IMAGE" 2>/dev/null || true

step 'start: migrations, then serve (with the extension mounted)'
"${run[@]}" -d --name "$NAME" "${ENV_ARGS[@]}" "${EXTENSION_ARGS[@]}" "$IMAGE" >/dev/null
for i in $(seq 1 120); do
  curl -fsS "http://127.0.0.1:$PORT/health/ready" >/dev/null 2>&1 && break
  [ "$("${engine[@]}" inspect --format '{{.State.Running}}' "$NAME")" = true ] || { "${engine[@]}" logs "$NAME"; fail 'the service exited'; }
  sleep 0.5
done
curl -fsS "http://127.0.0.1:$PORT/health/ready"; echo
curl -fsS "http://127.0.0.1:$PORT/health/live"; echo
node -e "const {Client}=require('pg');(async()=>{const c=new Client({connectionString:process.argv[1]});await c.connect();const r=await c.query('SELECT name FROM migrations ORDER BY id');console.log('migrations applied:',r.rows.map(x=>x.name).join(', '));await c.end()})()" "$DB_URL"

step 'discovery, a token, metrics on their own port only'
issuer=$(curl -fsS "http://127.0.0.1:$PORT/.well-known/openid-configuration" | node -pe 'JSON.parse(require("fs").readFileSync(0)).issuer')
[ "$issuer" = https://tollgate.check ] || fail "issuer $issuer"
echo "issuer: $issuer"
token=$(curl -fsS -u m2m:m2m-secret -d grant_type=client_credentials -d scope=api1 "http://127.0.0.1:$PORT/connect/token" | node -pe 'JSON.parse(require("fs").readFileSync(0)).access_token')
echo "$token" | cut -d. -f2 | node -pe 'const c=JSON.parse(Buffer.from(require("fs").readFileSync(0,"utf8").trim(),"base64url"));`token: iss ${c.iss}, aud ${c.aud}, client_id ${c.client_id}`'
[ "$(curl -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$PORT/metrics")" = 404 ] || fail '/metrics on the public port'
metrics=$(curl -fsS "http://127.0.0.1:$METRICS/metrics")
grep '^tollgate_tokens_issued_total' <<<"$metrics"
if [ "${engine[0]}" = podman ]; then
  "${engine[@]}" healthcheck run "$NAME" && echo 'HEALTHCHECK: healthy'
else
  for i in $(seq 1 30); do [ "$(docker inspect --format '{{.State.Health.Status}}' "$NAME")" = healthy ] && break; sleep 1; done
  echo "HEALTHCHECK: $(docker inspect --format '{{.State.Health.Status}}' "$NAME")"
fi

step 'a token through the mounted extension'
# The client, as its operator's migration would insert it (the secret's SHA-256, base64).
node -e "const {Client}=require('pg');const h=require('crypto').createHash('sha256').update(process.argv[2]).digest('base64');(async()=>{const c=new Client({connectionString:process.argv[1]});await c.connect();await c.query('INSERT INTO clients (client_id, enabled, allowed_grant_types, allowed_scopes, access_token_lifetime, public_client, redirect_uris, post_logout_redirect_uris, require_consent) VALUES (\$1, true, \$2, \$3, 3600, false, \$4, \$4, false)',['partner-gateway',[process.argv[3]],['api1'],[]]);await c.query('INSERT INTO client_secrets (client_id, value_hash) VALUES (\$1, \$2)',['partner-gateway',h]);await c.end()})().catch(e=>{console.error(e.message);process.exit(1)})" "$DB_URL" "$PARTNER_SECRET" "$PARTNER_GRANT"
# Clients are cached for CACHE_TTL_SECONDS (5 s by default): the new one may be unknown for that long.
for i in $(seq 1 20); do
  partner=$(curl -sS -u "partner-gateway:$PARTNER_SECRET" --data-urlencode "grant_type=$PARTNER_GRANT" --data-urlencode "api_key=$PARTNER_API_KEY" -d scope=api1 "http://127.0.0.1:$PORT/connect/token")
  grep -q '"access_token"' <<<"$partner" && break
  sleep 0.5
done
grep -q '"access_token"' <<<"$partner" || fail "no token through the extension: $partner"
echo "$partner" | node -pe 'const t=JSON.parse(require("fs").readFileSync(0)).access_token;const c=JSON.parse(Buffer.from(t.split(".")[1],"base64url"));`token: sub ${c.sub}, client_id ${c.client_id}, amr ${c.amr}`'
unknown=$(curl -sS -u "partner-gateway:$PARTNER_SECRET" --data-urlencode "grant_type=$PARTNER_GRANT" -d api_key=an-api-key-nobody-was-given "http://127.0.0.1:$PORT/connect/token")
grep -q '"error":"invalid_grant"' <<<"$unknown" || fail "an unknown API key: $unknown"
echo "an unknown API key: $unknown"

step 'operator commands from the image, without a compiler'
"${engine[@]}" exec "${ENV_ARGS[@]}" "$NAME" sh -c '! command -v tsc && tollgate 2>&1 | head -1'
"${engine[@]}" exec "${ENV_ARGS[@]}" "$NAME" tollgate keys:rotate
"${run[@]}" --rm -v "$OUT:/migrations" "$IMAGE" tollgate client:migration --client-id api3 --grant client_credentials --scope api2 --offline >/dev/null
written=$(ls "$OUT")
grep -q -- '-AddClientApi3.ts$' <<<"$written" || fail 'client:migration wrote nothing to the mounted directory'
echo "client:migration wrote $written to the mounted directory"

step 'SIGTERM: drain, close, exit 0'
started=$(date +%s%N)
"${engine[@]}" stop -t 30 "$NAME" >/dev/null
code=$("${engine[@]}" inspect --format '{{.State.ExitCode}}' "$NAME")
echo "stopped in $(( ($(date +%s%N) - started) / 1000000 )) ms, exit code $code"
[ "$code" = 0 ] || { "${engine[@]}" logs "$NAME" | tail -20; fail "exit code $code after SIGTERM"; }
# Captured first: with pipefail, grep -q closing the pipe early would fail the pipeline.
log=$("${engine[@]}" logs "$NAME" 2>&1)
grep -q 'SEED_DEMO=true: the demo data set is applied' <<<"$log" || fail 'no demo-data warning in the log'
grep -q 'SIGTERM received, shutting down' <<<"$log" || fail 'no shutdown line in the log'

step 'container check passed'
