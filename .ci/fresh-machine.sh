#!/usr/bin/env bash
# The README's promise on a fresh machine: `swift build --build-tests` and `swift run session-demo`
# with none of the -dev files of the C libraries SessionService loads at run time (libcurl,
# OpenSSL's libcrypto, libsecret and GLib, libpq). CI installs those packages for its ABI checks;
# here, in a mount namespace of its own, their headers, linker names (lib*.so, lib*.a) and
# pkg-config files are hidden behind overlay whiteouts, and the script first proves they are
# (a compile of #include <curl/curl.h> must fail). Needs root (unshare -m, mount).
#
#   .ci/fresh-machine.sh [DIR]   builds DIR, a clean checkout (default: a fresh clone of HEAD)
#   SWIFT_BUILD_FLAGS            adds flags to the build
set -euo pipefail
cd "$(dirname "$0")/.."

if [ "${FRESH_MACHINE_INSIDE:-}" != 1 ]; then
    scratch=$(mktemp -d)
    trap 'rm -rf "$scratch"' EXIT
    if [ $# -gt 0 ]; then
        target=$(cd "$1" && pwd)
    else
        target="$scratch/clone"
        git clone -q --no-local . "$target"
        git -C "$target" checkout -q "$(git rev-parse HEAD)"
    fi
    unshare -m env FRESH_MACHINE_INSIDE=1 FRESH_MACHINE_SCRATCH="$scratch" "$0" "$target"
    exit 0
fi

target=$1
scratch=$FRESH_MACHINE_SCRATCH
multiarch=$(gcc -print-multiarch 2>/dev/null || echo x86_64-linux-gnu)

# Whiteouts (character devices 0:0) in an overlay's upper layer hide a lower file or directory.
hide() {  # hide DIR NAME...: hides DIR/NAME for each NAME that exists
    local dir=$1; shift
    local upper="$scratch/overlay$dir/upper" work="$scratch/overlay$dir/work" hidden=0
    mkdir -p "$upper" "$work"
    for name in "$@"; do
        if [ -e "$dir/$name" ] || [ -L "$dir/$name" ]; then
            mkdir -p "$upper/$(dirname "$name")"
            mknod "$upper/$name" c 0 0
            hidden=$((hidden + 1))
        fi
    done
    mount -t overlay overlay -o "lowerdir=$dir,upperdir=$upper,workdir=$work" "$dir"
    echo "fresh machine: $hidden entries of $dir hidden"
}
hide /usr/include openssl curl libsecret-1 glib-2.0 postgresql libpq-fe.h libpq pg_config.h \
    "$multiarch/openssl" "$multiarch/curl"
libs=()
for lib in libcurl libcrypto libssl libsecret-1 libglib-2.0 libgobject-2.0 libgio-2.0 libpq; do
    libs+=("$lib.so" "$lib.a" "pkgconfig/$lib.pc")
done
hide "/usr/lib/$multiarch" "${libs[@]}" pkgconfig/openssl.pc pkgconfig/glib-2.0.pc pkgconfig/gio-2.0.pc \
    pkgconfig/gobject-2.0.pc glib-2.0
hide /usr/share/pkgconfig libcurl.pc libsecret-1.pc glib-2.0.pc

command -v cc > /dev/null || { echo "fresh machine: needs a C compiler (cc) to prove the headers are hidden"; exit 1; }
for header in curl/curl.h openssl/evp.h libsecret/secret.h glib.h libpq-fe.h; do
    if echo "#include <$header>" | cc -E - $(pkg-config --cflags glib-2.0 2> /dev/null) > /dev/null 2>&1; then
        echo "fresh machine: <$header> is still visible: the check would prove nothing"; exit 1
    fi
done
if pkg-config --exists libcurl 2> /dev/null || pkg-config --exists libcrypto 2> /dev/null; then
    echo "fresh machine: pkg-config still finds libcurl or libcrypto"; exit 1
fi
echo "fresh machine: no header, linker name or pkg-config file of libcurl, OpenSSL, libsecret, GLib or libpq is visible"

cd "$target"
export HOME="$scratch/home" XDG_DATA_HOME="$scratch/home/.local/share"
mkdir -p "$HOME"
echo "fresh machine: swift build --build-tests (in $target)"
# shellcheck disable=SC2086
swift build --build-tests ${SWIFT_BUILD_FLAGS:-}
echo "fresh machine: swift run session-demo"
# shellcheck disable=SC2086
swift run ${SWIFT_BUILD_FLAGS:-} session-demo > "$scratch/demo.log" 2>&1 || { cat "$scratch/demo.log"; exit 1; }
tail -n 3 "$scratch/demo.log"
echo "fresh machine: both README commands' builds work with none of the libraries' -dev files"
