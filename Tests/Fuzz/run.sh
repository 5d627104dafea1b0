#!/usr/bin/env bash
# Builds SessionService's fuzz targets with libFuzzer and AddressSanitizer and runs each one.
#
#   Tests/Fuzz/run.sh [SECONDS]      each target for SECONDS (default 60)
#   Tests/Fuzz/run.sh --runs N       each target until N executions
#
# Seeds come from Tests/Fuzz/Corpus/<target> (appauth-archive's are generated); what libFuzzer finds goes to .build/fuzz/corpus.
# A crash, hang (over 10 s), leak or unexpected error type stops that target and fails the
# script; the input is kept under .build/fuzz/artifacts/<target>/. Prints one line per target:
# executions, seconds, executions per second.
set -euo pipefail
cd "$(dirname "$0")/../.."

limit=(-max_total_time="${1:-60}")
if [[ "${1:-}" == "--runs" ]]; then limit=(-runs="${2:?--runs needs a count}"); fi

echo "fuzz: building (release, -sanitize=fuzzer,address)"
SESSION_FUZZ=1 swift build -c release --build-path .build/fuzz --product session-fuzz \
    -Xswiftc -sanitize=fuzzer,address -Xswiftc -enable-testing > .build/fuzz-build.log 2>&1 \
    || { cat .build/fuzz-build.log; exit 1; }
binary=.build/fuzz/release/session-fuzz

failed=0
printf '%-24s %12s %9s %10s\n' target executions seconds "exec/s"
for target in jws discovery token-response authorization-response permissions session-file http-request private-key appauth-archive response-headers sealed-authorization pushed-authorization dpop-nonce resource-challenge resource-metadata client-registration userinfo web-request logout-token device-authorization jwks; do
    corpus=.build/fuzz/corpus/$target
    artifacts=.build/fuzz/artifacts/$target/
    mkdir -p "$corpus" "$artifacts"
    # AppAuth archives are binary: their seeds are written by SessionTesting's AppAuthArchiver.
    if [[ $target == appauth-archive ]]; then FUZZ_WRITE_SEEDS="$corpus" "$binary"; fi
    log=.build/fuzz/$target.log
    start=$(date +%s)
    if FUZZ_TARGET=$target LSAN_OPTIONS=suppressions=Tests/Fuzz/lsan-suppressions.txt "$binary" "${limit[@]}" -timeout=10 -rss_limit_mb=2048 -print_final_stats=1 \
        -artifact_prefix="$artifacts" "$corpus" $([[ -d Tests/Fuzz/Corpus/$target ]] && echo "Tests/Fuzz/Corpus/$target") > "$log" 2>&1; then
        status=ok
    else
        status=FAILED
        failed=1
    fi
    seconds=$(( $(date +%s) - start ))
    executions=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
    rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$log" | tail -1)
    printf '%-24s %12s %9s %10s %s\n' "$target" "${executions:-?}" "$seconds" "${rate:-?}" "$status"
    if [[ $status == FAILED ]]; then
        grep -E "ERROR|Fatal error|SUMMARY|Test unit written" "$log" | head -5 || true
    fi
done
exit $failed
