#!/usr/bin/env bash
# Runs the interop tests against two OpenID providers nobody here wrote, installed (pinned,
# Tests/Interop/requirements.txt) into a venv under .build/interop:
# - django-oauth-toolkit: a throwaway Django project instance (sqlite, a fresh RS256 key, PKCE
#   required, refresh rotation with reuse protection, revocation), a seeded user, public clients
#   (one for the device grant) and a confidential one, RP-initiated logout;
# - idpyoidc's server library with its DPoP and pushed-authorization add-ons, behind the small
#   HTTP wrapper Tests/Interop/idpyoidc/provider.py, two confidential clients: a native one and a
#   web application registered for back-channel logout, which the tests serve on a port chosen here;
# - PyPI's MCP SDK (mcp): an authorization server and a protected MCP server in one process
#   (Tests/Interop/mcp/server.py), with dynamic registration and resource-bound tokens.
# Both listen on 127.0.0.1 only; the InteropTests target runs against them (INTEROP_FILTER picks
# fewer tests), then both are stopped by PID.
#
# The InteropTests target exists only when SESSION_INTEROP=1 (see Package.swift), so plain
# `swift test` never runs it, and its tests fail when the provider's variables are missing.
#
# Extra `swift build` flags come from SWIFT_BUILD_FLAGS (the CI passes -warnings-as-errors).
set -euo pipefail

ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
HERE="$ROOT/Tests/Interop"
WORK="$ROOT/.build/interop"
VENV="$WORK/venv"
RUN="$WORK/run"
PYTHON="${INTEROP_PYTHON:-python3}"

log() { printf 'interop: %s\n' "$*" >&2; }

mkdir -p "$WORK"
if [ ! -x "$VENV/bin/python" ] || ! cmp -s "$HERE/requirements.txt" "$VENV/installed-requirements.txt"; then
    log "installing the interop providers (django-oauth-toolkit, idpyoidc) into $VENV"
    rm -rf "$VENV"
    "$PYTHON" -m venv "$VENV"
    "$VENV/bin/pip" install --quiet --disable-pip-version-check -r "$HERE/requirements.txt"
    cp "$HERE/requirements.txt" "$VENV/installed-requirements.txt"
fi
PY="$VENV/bin/python"

rm -rf "$RUN"
mkdir -p "$RUN"
export INTEROP_WORK="$RUN"
# Secrets go by files only their owner reads, never by the environment every child inherits:
# the variables name the files.
SECRETS="$RUN/secrets"
(umask 077 && mkdir -p "$SECRETS" \
    && "$PY" -c 'import secrets; print(secrets.token_urlsafe(48))' > "$SECRETS/django-secret-key" \
    && "$PY" -c 'import secrets; print(secrets.token_urlsafe(18))' > "$SECRETS/password" \
    && "$PY" -c 'import secrets; print(secrets.token_urlsafe(24) + "+/:=")' > "$SECRETS/client-secret")
# (The client secret ends in characters that form-URL-encoding must escape, as a real one may.)
export INTEROP_DJANGO_SECRET_FILE="$SECRETS/django-secret-key"
export INTEROP_PASSWORD_FILE="$SECRETS/password"
export INTEROP_CLIENT_SECRET_FILE="$SECRETS/client-secret"
export INTEROP_USERNAME="alice"
export INTEROP_SECOND_USERNAME="bob"
export INTEROP_CONFIDENTIAL_CLIENT_ID="interop-confidential"
"$PY" - "$RUN/oidc-rsa.pem" <<'PYEOF'
import sys
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import rsa
key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
with open(sys.argv[1], "wb") as out:
    out.write(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8, serialization.NoEncryption()))
PYEOF

cd "$HERE/provider"
"$PY" manage.py migrate --noinput -v 0
SUBJECT="$("$PY" seed.py)"
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1]); s.close()'; }
PIDS=()
stop_servers() {
    for pid in "${PIDS[@]}"; do kill "$pid" 2>/dev/null || true; done
    for pid in "${PIDS[@]}"; do wait "$pid" 2>/dev/null || true; done
}
trap stop_servers EXIT

# Waits until URL answers 200, or fails (showing LOG) when the server PID exits or 60 s pass.
wait_for() {
    local url="$1" pid="$2" log_file="$3"
    if ! "$PY" - "$url" "$pid" <<'PYEOF'
import os, sys, time, urllib.request
url, pid = sys.argv[1], int(sys.argv[2])
deadline = time.monotonic() + 60
while time.monotonic() < deadline:
    try:
        os.kill(pid, 0)
    except OSError:
        sys.exit("the provider exited while starting")
    try:
        with urllib.request.urlopen(url, timeout=2) as response:
            if response.status == 200:
                sys.exit(0)
    except OSError:
        pass
    time.sleep(0.2)
sys.exit("the provider did not answer within 60 s")
PYEOF
    then
        log "the provider at $url did not start; its log follows"
        cat "$log_file" >&2
        exit 1
    fi
}

PORT="$(free_port)"
export INTEROP_BASE_URL="http://127.0.0.1:$PORT"
log "starting django-oauth-toolkit on 127.0.0.1:$PORT"
"$PY" manage.py runserver "127.0.0.1:$PORT" --noreload > "$RUN/server.log" 2>&1 &
PIDS+=("$!")
ISSUER="http://127.0.0.1:$PORT/o"
wait_for "$ISSUER/.well-known/openid-configuration" "$!" "$RUN/server.log"

# idpyoidc's server with its DPoP and pushed-authorization add-ons, behind a small HTTP wrapper.
IDPY_PORT="$(free_port)"
IDPY_WORK="$RUN/idpyoidc"
mkdir -p "$IDPY_WORK"
export INTEROP_IDPY_ISSUER="http://127.0.0.1:$IDPY_PORT"
export INTEROP_IDPY_CLIENT_ID="interop-fapi"
export INTEROP_IDPY_CLIENT_SECRET_FILE="$IDPY_WORK/client-secret"
(umask 077 && "$PY" -c 'import secrets; print(secrets.token_urlsafe(24))' > "$INTEROP_IDPY_CLIENT_SECRET_FILE")
export INTEROP_IDPY_REDIRECT_URI="com.example.interop:/callback"
export INTEROP_IDPY_SUBJECT="diana"
# The web application the tests serve (Swift's loopback server), registered for back-channel logout.
export INTEROP_IDPY_WEB_PORT="$(free_port)"
export INTEROP_IDPY_WEB_ORIGIN="http://127.0.0.1:$INTEROP_IDPY_WEB_PORT"
log "starting idpyoidc $("$PY" -c 'import importlib.metadata as m; print(m.version("idpyoidc"))') on 127.0.0.1:$IDPY_PORT"
(cd "$IDPY_WORK" && exec "$PY" "$HERE/idpyoidc/provider.py" "$IDPY_PORT" "$IDPY_WORK" "$INTEROP_IDPY_SUBJECT") > "$IDPY_WORK/stdout.log" 2>&1 &
PIDS+=("$!")
wait_for "$INTEROP_IDPY_ISSUER/.well-known/openid-configuration" "$!" "$IDPY_WORK/stdout.log"

# PyPI's MCP SDK: its authorization server and a protected MCP endpoint at /mcp.
MCP_PORT="$(free_port)"
export INTEROP_MCP_URL="http://127.0.0.1:$MCP_PORT/mcp"
log "starting mcp $("$PY" -c 'import importlib.metadata as m; print(m.version("mcp"))') on 127.0.0.1:$MCP_PORT"
"$PY" "$HERE/mcp/server.py" "$MCP_PORT" > "$RUN/mcp.log" 2>&1 &
PIDS+=("$!")
wait_for "http://127.0.0.1:$MCP_PORT/.well-known/oauth-authorization-server" "$!" "$RUN/mcp.log"

export INTEROP_ISSUER="$ISSUER"
export INTEROP_CLIENT_ID="interop-app"
export INTEROP_DEMO_CLIENT_ID="interop-demo"
export INTEROP_SUBJECT="$SUBJECT"
export SESSION_INTEROP=1

cd "$ROOT"
# shellcheck disable=SC2086 # SWIFT_BUILD_FLAGS is a list of flags
swift build --build-tests ${SWIFT_BUILD_FLAGS:-}
swift test --skip-build --filter "${INTEROP_FILTER:-InteropTests}"
log "interop tests passed against django-oauth-toolkit $("$PY" -c 'import oauth2_provider; print(oauth2_provider.__version__)'), idpyoidc $("$PY" -c 'import importlib.metadata as m; print(m.version("idpyoidc"))') and mcp $("$PY" -c 'import importlib.metadata as m; print(m.version("mcp"))')"
