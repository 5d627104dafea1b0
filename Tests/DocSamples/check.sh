#!/usr/bin/env bash
# Type-checks the Swift code the documentation shows, so a sample that no longer compiles fails CI:
# every ```swift block that starts with `import` in README.md and in the DocC catalogs' articles
# (Sources/*/*.docc/*.md). A block that imports UIKit or AuthenticationServices is checked against
# the Apple-flavoured modules Tests/AppleTypeCheck/run.sh builds (run that first); every other
# block against this platform's debug build. Blocks are top-level code, as in a main.swift.
# Then SessionCore's catalog is built with docc, as the README says, with warnings as errors, so a
# symbol link that leads nowhere or an undocumented parameter fails too.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build ${SWIFT_BUILD_FLAGS:-} >/dev/null
modules="$(swift build --show-bin-path)/Modules"
apple=".build/apple-typecheck/iOS"
out=.build/doc-samples
rm -rf "$out" && mkdir -p "$out"

python3 - "$out" README.md Sources/*/*.docc/*.md <<'PY'
import pathlib, re, sys
out = pathlib.Path(sys.argv[1])
count = 0
for name in sys.argv[2:]:
    text = pathlib.Path(name).read_text()
    for number, block in enumerate(re.findall(r"```swift\n(.*?)```", text, re.S)):
        if not block.startswith("import "):
            continue
        count += 1
        stem = re.sub(r"[^A-Za-z0-9]+", "_", name) + f"_{number}"
        (out / f"{stem}.swift").write_text(f"// {name}, block {number}\n" + block)
print(f"doc-samples: {count} blocks extracted")
PY

failed=0
for sample in "$out"/*.swift; do
    if grep -qE '^import (UIKit|AuthenticationServices)' "$sample"; then
        [ -d "$apple" ] || { echo "doc-samples: run Tests/AppleTypeCheck/run.sh first ($sample needs its modules)"; exit 1; }
        flags=(-I "$apple")
    else
        flags=(-I "$modules" -Xcc -fmodule-map-file=Sources/CLibCrypto/module.modulemap -Xcc -fmodule-map-file=Sources/CLibCurl/module.modulemap
               -Xcc -fmodule-map-file=Sources/CLibPQ/module.modulemap)
    fi
    if ! swiftc -typecheck -swift-version 6 -warnings-as-errors "${flags[@]}" "$sample" 2> "$sample.log"; then
        echo "doc-samples: $(head -1 "$sample" | cut -c4-) does not compile:"
        grep -E "error|warning" "$sample.log" | head -10
        failed=1
    fi
done
# The article's example store is run by a test: the two must be the same code.
python3 - <<'PY' || failed=1
import pathlib, re, sys
article = pathlib.Path("Sources/SessionCore/SessionCore.docc/WritingATokenStore.md").read_text()
block = re.findall(r"```swift\n(.*?)```", article, re.S)[0]
block = "".join(line for line in block.splitlines(keepends=True) if not line.startswith("import "))
test = pathlib.Path("Tests/SessionCoreTests/KeyValueStoreTests.swift").read_text()
tested = re.search(r"// BEGIN the example[^\n]*\n[^\n]*\n(.*?)// END the example", test, re.S).group(1)
if block.strip() != tested.strip():
    print("doc-samples: the store of WritingATokenStore.md is not the one KeyValueStoreTests runs")
    sys.exit(1)
print("doc-samples: the article's example store is the one KeyValueStoreTests runs")
PY
[ $failed = 0 ] && echo "doc-samples: every block compiles"
[ $failed = 0 ] || exit 1

# The symbol graph needs compiler flags of its own, so it is built in a scratch directory of its own.
docs=.build/docs
swift build --scratch-path "$docs" --target SessionCore -Xswiftc -emit-symbol-graph \
    -Xswiftc -emit-symbol-graph-dir -Xswiftc "$docs/symbol-graphs" >/dev/null
docc convert Sources/SessionCore/SessionCore.docc --additional-symbol-graph-dir "$docs/symbol-graphs" --warnings-as-errors \
    --fallback-display-name SessionCore --fallback-bundle-identifier SessionCore --output-path "$docs/SessionCore.doccarchive" \
    > "$docs/docc.log" 2>&1 || { grep -E "warning|error" "$docs/docc.log" | head -20; exit 1; }
echo "doc-samples: SessionCore's documentation builds without a warning"
