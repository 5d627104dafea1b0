#!/usr/bin/env bash
# Type-checks the Swift code the documentation shows, so a sample that no longer compiles fails CI:
# - every ```swift block that starts with `import` in README.md, MIGRATION.md and the DocC catalogs'
#   articles (Sources/*/*.docc, Compat/*/*.docc), as top-level code in Swift 6 mode. A block that
#   imports UIKit or AuthenticationServices is checked against the Apple-flavoured modules
#   Tests/AppleTypeCheck/run.sh builds (run that first); every other one against this platform's build;
# - every other block of a migration guide (Compat/<Module>/<Module>.docc/MigratingFrom*.md), in the
#   context Tests/DocSamples/Preludes/<Module>.swift gives it, in Swift 5 mode as a legacy app is
#   written: each block a method, what follows "// Step 3" an async one. Blocks of the legacy SDK's
#   own older API ("// 1.0.1", "// Before") are not compiled;
# then Tests/DocSamples/drift.py (counts, products and modules the docs name, file sizes), and every
# DocC catalog is built with docc with warnings as errors, so a link that leads nowhere or an
# undocumented parameter fails too.
set -euo pipefail
cd "$(dirname "$0")/../.."

swift build ${SWIFT_BUILD_FLAGS:-} >/dev/null
modules="$(swift build --show-bin-path)/Modules"
apple=".build/apple-typecheck/iOS"
out=.build/doc-samples
rm -rf "$out" && mkdir -p "$out"

python3 - "$out" README.md MIGRATION.md Sources/*/*.docc/*.md Compat/*/*.docc/*.md <<'PY'
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
# The migration guides' fragments, each in its module's prelude.
python3 - "$out" Compat/*/*.docc/MigratingFrom*.md <<'PY'
import pathlib, re, sys
out = pathlib.Path(sys.argv[1])
for name in sys.argv[2:]:
    module = pathlib.Path(name).parts[1]
    prelude = pathlib.Path(f"Tests/DocSamples/Preludes/{module}.swift")
    if not prelude.exists():
        print(f"doc-samples: {name} has no prelude {prelude}")
        sys.exit(1)
    methods = []
    blocks = re.findall(r"```swift\n(.*?)```", pathlib.Path(name).read_text(), re.S)
    for number, block in enumerate(blocks):
        if block.startswith("import ") or "// 1.0.1" in block or "// Before" in block:
            continue
        before, marker, after = block.partition("// Step 3")
        indent = lambda text: "".join("        " + line + "\n" for line in text.splitlines())
        if marker:
            methods.append(f"    // {name}, block {number}\n    func block{number}() throws {{\n{indent(before)}    }}\n")
            methods.append(f"    func block{number}Step3() async throws {{\n{indent(after.split(chr(10), 1)[1])}    }}\n")
        else:
            methods.append(f"    // {name}, block {number}\n    func block{number}() async throws {{\n{indent(block)}    }}\n")
    source = prelude.read_text().replace("//FRAGMENTS", "\n".join(methods))
    (out / f"fragments_{module}.swift").write_text(f"// {name}, its fragments\n" + source)
    print(f"doc-samples: {len(methods)} fragments of {name}")
PY
for sample in "$out"/fragments_*.swift; do
    if ! swiftc -typecheck -swift-version 5 -I "$modules" -Xcc -fmodule-map-file=Sources/CLibCrypto/module.modulemap \
        -Xcc -fmodule-map-file=Sources/CLibCurl/module.modulemap "$sample" 2> "$sample.log"; then
        echo "doc-samples: $(head -1 "$sample" | cut -c4-) do not compile:"
        grep -E "error" "$sample.log" | head -10
        failed=1
    fi
    # A fragment may leave a value unused; any other warning is a real one.
    if grep -E "warning:" "$sample.log" | grep -vE "never used|never mutated|was never read" | grep -q .; then
        echo "doc-samples: $(head -1 "$sample" | cut -c4-) warn:"
        grep -E "warning:" "$sample.log" | grep -vE "never used|never mutated|was never read" | head -5
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

python3 Tests/DocSamples/drift.py || exit 1

# The symbol graphs need compiler flags of their own, so they are built in a scratch directory of
# their own; each catalog is then converted with its module's graphs alone.
docs=.build/docs
for catalog in Sources/*/*.docc Compat/*/*.docc; do
    module=$(basename "$catalog" .docc)
    swift build --scratch-path "$docs" --target "$module" -Xswiftc -emit-symbol-graph \
        -Xswiftc -emit-symbol-graph-dir -Xswiftc "$docs/symbol-graphs" >/dev/null
    graphs="$docs/graphs/$module"
    rm -rf "$graphs" && mkdir -p "$graphs"
    cp "$docs/symbol-graphs/$module.symbols.json" "$docs/symbol-graphs/$module"@*.symbols.json "$graphs/" 2>/dev/null || true
    docc convert "$catalog" --additional-symbol-graph-dir "$graphs" --warnings-as-errors \
        --fallback-display-name "$module" --fallback-bundle-identifier "$module" --output-path "$docs/$module.doccarchive" \
        > "$docs/$module.docc.log" 2>&1 || { echo "doc-samples: $catalog:"; grep -E "warning|error" "$docs/$module.docc.log" | head -20; exit 1; }
done
echo "doc-samples: every catalog builds with docc without a warning"
