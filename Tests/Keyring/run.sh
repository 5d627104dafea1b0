#!/usr/bin/env bash
# Runs the keyring tests (Tests/Keyring/KeyringTests) against a real gnome-keyring-daemon, in a
# private D-Bus session with a keyring unlocked by a test password; then without a Secret Service
# on the bus, and without a session bus at all. Everything the daemon and the tests write goes to
# a scratch HOME, removed at the end. Needs Debian's gnome-keyring, libsecret-1-dev (for
# abi-check.c only: the module itself loads libsecret at run time), dbus, libsecret-tools
# (secret-tool) and python3-dbus (unlock.py); .ci/run installs them.
#
#   Tests/Keyring/run.sh        SWIFT_BUILD_FLAGS adds flags to the build
set -euo pipefail
cd "$(dirname "$0")/../.."

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
export HOME="$scratch/home" XDG_DATA_HOME="$scratch/home/.local/share" XDG_CONFIG_HOME="$scratch/home/.config" \
       XDG_CACHE_HOME="$scratch/home/.cache" XDG_RUNTIME_DIR="$scratch/run"
mkdir -p "$HOME" "$XDG_DATA_HOME" "$XDG_CONFIG_HOME" "$XDG_CACHE_HOME" "$XDG_RUNTIME_DIR"
chmod 700 "$XDG_RUNTIME_DIR"
build=(--scratch-path "$(pwd)/.build")

echo "keyring: SessionKeyring's transcription of libsecret's ABI against its real headers (abi-check.c)"
# shellcheck disable=SC2046
cc -Wall -Werror -o "$scratch/abi-check" Tests/Keyring/abi-check.c $(pkg-config --cflags libsecret-1)
"$scratch/abi-check"

echo "keyring: building (SESSION_KEYRING=1)"
# shellcheck disable=SC2086
SESSION_KEYRING=1 swift build --build-tests "${build[@]}" ${SWIFT_BUILD_FLAGS:-} > "$scratch/build.log" 2>&1 || { cat "$scratch/build.log"; exit 1; }

echo "keyring: against gnome-keyring-daemon in a private D-Bus session"
export SESSION_KEYRING_PASSWORD=session-keyring-test
SESSION_KEYRING=1 dbus-run-session -- bash -c '
    eval "$(printf %s "$SESSION_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets)"
    export GNOME_KEYRING_CONTROL
    swift test --skip-build "$@" --filter KeyringTests
    # The last test locked the keyring: unlocked again, the session it could not replace is intact.
    /usr/bin/python3 Tests/Keyring/unlock.py
    SESSION_KEYRING_PHASE=unlocked-again swift test --skip-build "$@" --filter KeyringTests.KeyringUnlockedAgainTests
    # session-demo --store keyring: a second run restores what the first kept in the keyring.
    demo=$(swift build "$@" --show-bin-path)/session-demo
    "$demo" --store keyring > /dev/null
    second=$("$demo" --store keyring)
    grep -q "session stored in the desktop keyring" <<< "$second" && grep -q "stored by an earlier run was restored" <<< "$second" \
        || { echo "session-demo --store keyring did not restore its session:"; echo "$second"; exit 1; }
    echo "session-demo --store keyring: the second run restored the first run'"'"'s session"' _ "${build[@]}"

echo "keyring: a session bus without a Secret Service (and nothing that could start one)"
# The standard session bus, without the directories it would start services from.
sed 's#<standard_session_servicedirs */>##' /usr/share/dbus-1/session.conf > "$scratch/bus.conf"
SESSION_KEYRING=1 SESSION_KEYRING_ABSENT=service dbus-run-session --config-file="$scratch/bus.conf" -- \
    swift test --skip-build "${build[@]}" --filter KeyringTests.SecretServiceAbsentTests

echo "keyring: no session bus at all"
env -u DBUS_SESSION_BUS_ADDRESS -u DISPLAY SESSION_KEYRING=1 SESSION_KEYRING_ABSENT=bus \
    swift test --skip-build "${build[@]}" --filter KeyringTests.SecretServiceAbsentTests
