#!/usr/bin/env bash
# Runs the PostgreSQL tests (Tests/Postgres/PostgresTests; session-bench --fleet-node is a node of
# their fleet), then session-bench's fleet.* figures,
# against a throw-away PostgreSQL cluster: initdb and pg_ctl as the postgres user in a temporary
# directory, listening on 127.0.0.1 only, with password authentication and TLS; stopped by its PID
# at the end, and the directory removed. PgBouncer in transaction-pooling mode stands in front of
# it for the tests that go through a pooler. Needs PostgreSQL's server binaries (Debian's
# postgresql-15, part of this project's machine image), Debian's pgbouncer (installed here when
# missing) and root (to run them as postgres).
#
#   Tests/Postgres/run.sh [FILTER]   FILTER: which tests (default PostgresTests)
#   SWIFT_BUILD_FLAGS                adds flags to the build
#   SESSION_POSTGRES_SANITIZE=thread builds in .build/sanitize-thread and runs the tests under that
#                                    sanitizer (halting at its first report), without the bench
set -euo pipefail
cd "$(dirname "$0")/../.."

bin=$(ls -d /usr/lib/postgresql/*/bin 2> /dev/null | sort -V | tail -1)
if ! command -v pgbouncer > /dev/null; then
    echo "postgres: installing pgbouncer for the tests through a pooler"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq pgbouncer > /dev/null
fi
[ -x "$bin/initdb" ] || { echo "postgres: no PostgreSQL server binaries under /usr/lib/postgresql"; exit 1; }
scratch=$(mktemp -d /tmp/session-postgres.XXXXXX)
chmod 755 "$scratch"
# The server's own directory (data, socket, log) belongs to postgres; the rest stays the tests'.
mkdir "$scratch/server"
chown postgres "$scratch/server"
pid=
pooler=
cleanup() {
    if [ -n "$pooler" ] && kill -0 "$pooler" 2> /dev/null; then kill -INT "$pooler"; fi
    # A restart replaced the server: stop the one that runs now.
    [ -f "$scratch/pid" ] && pid=$(cat "$scratch/pid")
    if [ -n "$pid" ] && kill -0 "$pid" 2> /dev/null; then
        kill -INT "$pid"
        while kill -0 "$pid" 2> /dev/null; do sleep 0.1; done
    fi
    rm -rf "$scratch"
}
trap cleanup EXIT
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
password=$(python3 -c 'import secrets; print(secrets.token_urlsafe(18))')
printf %s "$password" > "$scratch/password"
chown postgres "$scratch/password"
runuser -u postgres -- "$bin/initdb" -D "$scratch/server/cluster" -U session_service -A scram-sha-256 --pwfile="$scratch/password" \
    > "$scratch/initdb.log" 2>&1 || { cat "$scratch/initdb.log"; exit 1; }
rm -f "$scratch/password"
# TLS with a certificate of a throw-away authority, for the tests that ask for sslmode=verify-full.
openssl req -x509 -newkey rsa:2048 -nodes -days 1 -subj "/CN=session-service-tests-ca" \
    -keyout "$scratch/ca.key" -out "$scratch/ca.crt" > /dev/null 2>&1
# The server is 127.0.0.1 and db.session.test: a name that is not loopback, reached at 127.0.0.1 by hostaddr.
openssl req -newkey rsa:2048 -nodes -subj "/CN=127.0.0.1" -addext "subjectAltName=IP:127.0.0.1,DNS:db.session.test" \
    -keyout "$scratch/server/server.key" -out "$scratch/server.csr" > /dev/null 2>&1
openssl x509 -req -in "$scratch/server.csr" -CA "$scratch/ca.crt" -CAkey "$scratch/ca.key" -CAcreateserial -days 1 \
    -copy_extensions copy -out "$scratch/server/server.crt" > /dev/null 2>&1
chown postgres "$scratch/server/server.key" "$scratch/server/server.crt"
chmod 600 "$scratch/server/server.key"
server_options="-c listen_addresses=127.0.0.1 -c port=$port -c unix_socket_directories=$scratch/server -c max_connections=200 \
    -c ssl=on -c ssl_cert_file=$scratch/server/server.crt -c ssl_key_file=$scratch/server/server.key"
start() {
    runuser -u postgres -- "$bin/pg_ctl" -D "$scratch/server/cluster" -l "$scratch/server/server.log" -w -o "$server_options" start > /dev/null
    pid=$(head -1 "$scratch/server/cluster/postmaster.pid")
}
start
echo "postgres: a throw-away cluster on 127.0.0.1:$port (PID $pid)"

# The connection string reaches the tests in a file only the tests' user can read, never in an environment.
umask 077
printf 'host=127.0.0.1 port=%s dbname=postgres user=session_service password=%s sslmode=disable\n' "$port" "$password" > "$scratch/conninfo"
# The key every node seals its rows with, in a file only the tests' user can read.
head -c 32 /dev/urandom > "$scratch/sealing-key"

# PgBouncer in transaction-pooling mode on a port of its own, in front of the cluster.
pooler_port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
mkdir "$scratch/pooler"
printf '"session_service" "%s"\n' "$password" > "$scratch/pooler/users"
cat > "$scratch/pooler/pgbouncer.ini" <<INI
[databases]
* = host=127.0.0.1 port=$port
[pgbouncer]
listen_addr = 127.0.0.1
listen_port = $pooler_port
unix_socket_dir =
auth_type = scram-sha-256
auth_file = $scratch/pooler/users
pool_mode = transaction
default_pool_size = 4
max_client_conn = 400
ignore_startup_parameters = extra_float_digits
logfile = $scratch/pooler/pgbouncer.log
pidfile = $scratch/pooler/pgbouncer.pid
INI
chown -R postgres "$scratch/pooler"
runuser -u postgres -- pgbouncer -d "$scratch/pooler/pgbouncer.ini"
for _ in $(seq 50); do [ -s "$scratch/pooler/pgbouncer.pid" ] && break; sleep 0.1; done
pooler=$(cat "$scratch/pooler/pgbouncer.pid")
echo "postgres: PgBouncer (transaction pooling) on 127.0.0.1:$pooler_port (PID $pooler)"
printf 'host=127.0.0.1 port=%s dbname=postgres user=session_service password=%s sslmode=disable\n' "$pooler_port" "$password" > "$scratch/pooler-conninfo"

# The tests restart the server through this script (a restart mid-run is one of their faults).
cat > "$scratch/restart" <<SCRIPT
#!/usr/bin/env bash
runuser -u postgres -- "$bin/pg_ctl" -D "$scratch/server/cluster" -m fast -w restart > /dev/null
head -1 "$scratch/server/cluster/postmaster.pid" > "$scratch/pid"
SCRIPT
cat > "$scratch/stop" <<SCRIPT
#!/usr/bin/env bash
runuser -u postgres -- "$bin/pg_ctl" -D "$scratch/server/cluster" -m fast -w stop > /dev/null
SCRIPT
cat > "$scratch/start" <<SCRIPT
#!/usr/bin/env bash
runuser -u postgres -- "$bin/pg_ctl" -D "$scratch/server/cluster" -l "$scratch/server/server.log" -w -o "$server_options" start > /dev/null
head -1 "$scratch/server/cluster/postmaster.pid" > "$scratch/pid"
SCRIPT
chmod 700 "$scratch/restart" "$scratch/stop" "$scratch/start"

sanitize=()
if [ -n "${SESSION_POSTGRES_SANITIZE:-}" ]; then
    sanitize=(--sanitize="$SESSION_POSTGRES_SANITIZE" --scratch-path ".build/sanitize-$SESSION_POSTGRES_SANITIZE")
    export TSAN_OPTIONS="${TSAN_OPTIONS:-halt_on_error=1}" ASAN_OPTIONS="${ASAN_OPTIONS:-halt_on_error=1}"
fi
echo "postgres: building (SESSION_POSTGRES=1${SESSION_POSTGRES_SANITIZE:+, sanitizer $SESSION_POSTGRES_SANITIZE})"
# shellcheck disable=SC2086
SESSION_POSTGRES=1 swift build --build-tests "${sanitize[@]}" ${SWIFT_BUILD_FLAGS:-} > "$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; exit 1; }
export SESSION_POSTGRES_SEALING_KEY_FILE="$scratch/sealing-key"
SESSION_POSTGRES=1 SESSION_POSTGRES_CONNINFO_FILE="$scratch/conninfo" SESSION_POSTGRES_RESTART="$scratch/restart" \
    SESSION_POSTGRES_STOP="$scratch/stop" SESSION_POSTGRES_START="$scratch/start" \
    SESSION_POSTGRES_ROOT_CERT="$scratch/ca.crt" SESSION_POSTGRES_POOLER_CONNINFO_FILE="$scratch/pooler-conninfo" \
    swift test --skip-build "${sanitize[@]}" --filter "${1:-PostgresTests}"
if [ -n "${SESSION_POSTGRES_SANITIZE:-}" ]; then echo "postgres: done (under $SESSION_POSTGRES_SANITIZE, without the bench)"; exit 0; fi
echo "postgres: session-bench --quick --postgres --only-fleet (fails only on a broken invariant)"
SESSION_POSTGRES_RESTART="$scratch/restart" "$(swift build --show-bin-path)/session-bench" --quick --postgres "$scratch/conninfo" --only-fleet
echo "postgres: done"
