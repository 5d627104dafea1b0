#!/usr/bin/env bash
# Checks the C declarations SessionCore and SessionPostgres transcribe (Sources/CLibCurl/shim.h,
# Sources/CLibCrypto/shim.h and Sources/CLibPQ/shim.h: libcurl, libcrypto and libpq are loaded at
# run time, so building needs no headers) against the real headers, then runs each check, which
# loads the library and finds every symbol. Needs Debian's libcurl4-openssl-dev, libssl-dev and
# libpq-dev, for this check only; .ci/run installs them. (libsecret's check runs with the keyring tests: Tests/Keyring/abi-check.c.)
set -euo pipefail
cd "$(dirname "$0")/../.."

scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
for check in curl crypto pq; do
    case $check in
        curl) package=libcurl ;;
        crypto) package=libcrypto ;;
        pq) package=libpq ;;
    esac
    # shellcheck disable=SC2046
    cc -std=c11 -Wall -Wextra -Werror -o "$scratch/$check-abi-check" "Tests/ABI/$check-abi-check.c" $(pkg-config --cflags "$package")
    "$scratch/$check-abi-check"
done
