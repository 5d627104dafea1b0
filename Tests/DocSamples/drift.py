#!/usr/bin/env python3
"""Fails when the documentation disagrees with the tree it describes.

Checked, each against the file that is the truth for it:
- sizes: no Markdown file over 25 KB, the README at most 8 KB, a migration guide at most 20 KB;
- products: the README's product table names exactly the products Package.swift declares;
- modules: the dependency graph of SessionCore's "How it fits together" is Package.swift's;
- fuzz targets: Tests/README.md's count and table are the targets Tests/Fuzz/run.sh runs, which are
  the targets the fuzzer itself knows;
- callback rules: every "C1–Cn" in the docs names the last rule the callback contract defines;
- links: every relative link of the top-level Markdown files leads to a file that exists;
- layout: the session's decision record gives SessionClient's lines and stored properties as the tree
  has them, within the limits it sets, and no store's abilities are found by casting.
Run from anywhere; prints one line per check.
"""
import json
import pathlib
import re
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parents[2]
failures = []


def fail(message):
    failures.append(message)
    print(f"drift: {message}")


def read(path):
    return (root / path).read_text()


def markdown_files():
    for path in root.rglob("*.md"):
        relative = path.relative_to(root)
        if relative.parts[0] in (".build", ".git") or ".build" in relative.parts:
            continue
        yield relative


# Sizes.
limits = {pathlib.Path("README.md"): 8000}
for path in markdown_files():
    size = (root / path).stat().st_size
    limit = limits.get(path, 20000 if path.name.startswith("MigratingFrom") else 25000)
    if size > limit:
        fail(f"{path} is {size} bytes, over its limit of {limit}")
print("drift: sizes checked")

# Products and modules, as SwiftPM reads the manifest (products added only for CI's fuzzing, under
# an environment variable, are not there).
manifest = json.loads(subprocess.run(["swift", "package", "dump-package"], cwd=root, check=True,
                                     capture_output=True, text=True).stdout)
declared = {product["name"] for product in manifest["products"]}
readme = read("README.md")
table = readme.split("## Products", 1)[1].split("\n## ", 1)[0] if "## Products" in readme else ""
listed = set()
for row in table.splitlines():
    if row.startswith("| `"):
        listed.update(re.findall(r"`([^`]+)`", row.split("|")[1]))
if not table:
    fail("README.md has no '## Products' table")
for name in sorted(declared - listed):
    fail(f"product {name} is in Package.swift but not in README.md's product table")
for name in sorted(listed - declared):
    fail(f"README.md's product table names {name}, which Package.swift does not declare")
print(f"drift: {len(declared)} products checked against the README's table")

targets = {}
for target in manifest["targets"]:
    if target["type"] == "test":
        continue
    names = set()
    for dependency in target["dependencies"]:
        for kind in ("byName", "target"):
            if kind in dependency:
                names.add(dependency[kind][0])
    targets[target["name"]] = names
article = read("Sources/SessionCore/SessionCore.docc/HowItFitsTogether.md")
graph = re.search(r"```text\n(.*?)```", article, re.S).group(1)
drawn = set()
for line in graph.splitlines():
    left, _, right = line.partition("→")
    named = {word for word in re.findall(r"[A-Za-z]+", right) if word in targets}
    for module in [m.strip() for m in left.split(",")]:
        drawn.add(module)
        if module not in targets:
            fail(f"HowItFitsTogether.md draws {module}, which Package.swift does not declare")
        elif named != targets[module]:
            fail(f"HowItFitsTogether.md: {module} depends on {sorted(targets[module])} in Package.swift, the graph says {sorted(named)}")
libraries = {target for product in manifest["products"] if "library" in product["type"] for target in product["targets"]}
for name in sorted(libraries - drawn):
    fail(f"library target {name} is missing from HowItFitsTogether.md's graph")
print(f"drift: {len(drawn)} modules of the graph checked against Package.swift")

# Fuzz targets.
script = read("Tests/Fuzz/run.sh")
run = re.search(r"^for target in (.*?); do", script, re.M).group(1).split()
entry = read("Tests/Fuzz/SessionFuzz/FuzzEntry.swift")
cases = re.search(r"enum FuzzTarget: String, CaseIterable \{(.*?)static let", entry, re.S).group(1)
known = []
for case in re.findall(r"case ([^\n]+)", cases):
    for item in case.split(","):
        item = item.strip()
        raw = re.search(r'"([^"]+)"', item)
        known.append(raw.group(1) if raw else item)
if sorted(run) != sorted(known):
    fail(f"Tests/Fuzz/run.sh runs {sorted(run)}, the fuzzer knows {sorted(known)}")
tests_readme = read("Tests/README.md")
counted = re.findall(r"builds the (\d+) libFuzzer targets", tests_readme)
if counted != [str(len(run))]:
    fail(f"Tests/README.md counts {counted or 'no'} fuzz targets; Tests/Fuzz/run.sh runs {len(run)}")
tabled = re.findall(r"^\| `([a-z-]+)` \|", tests_readme.split("## Fuzzing", 1)[1], re.M)
if sorted(tabled) != sorted(run):
    fail(f"Tests/README.md's fuzz table lists {sorted(tabled)}, Tests/Fuzz/run.sh runs {sorted(run)}")
for path in markdown_files():
    for number in re.findall(r"\b(\w+) (?:libFuzzer|fuzz) targets", read(path)):
        words = {"seven": 7, "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14}
        value = int(number) if number.isdigit() else words.get(number.lower())
        if value is not None and value != len(run):
            fail(f"{path} speaks of {number} fuzz targets; there are {len(run)}")
print(f"drift: {len(run)} fuzz targets checked against the docs")

# Callback rules.
contract = read("Sources/SessionFacade/SessionFacade.docc/CallbackContract.md")
last = max(int(n) for n in re.findall(r"^- \*\*C(\d+) ", contract, re.M))
for path in list(markdown_files()) + [p.relative_to(root) for p in root.glob("Sources/**/*.swift")]:
    for number in re.findall(r"C1[–-]C(\d+)", read(path)):
        if int(number) != last:
            fail(f"{path} speaks of rules C1–C{number}; the contract defines C1–C{last}")
print(f"drift: mentions of rules C1–C{last} checked")

# Relative links of the Markdown files a reader opens first.
for path in [pathlib.Path("README.md"), pathlib.Path("MIGRATION.md"), pathlib.Path("Tests/README.md"), pathlib.Path("Samples/SessionBench/README.md")]:
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", read(path)):
        if "://" in target:
            continue
        if not ((root / path).parent / target).exists():
            fail(f"{path} links to {target}, which does not exist")
print("drift: relative links checked")

# Layout: the rooms the session's decision record describes.
record = read("Sources/SessionCore/SessionCore.docc/DecisionSessionApartFromFlows.md")
client_files = sorted((root / "Sources/SessionCore/Session").glob("SessionClient*.swift"))
lines = sum(len(path.read_text().splitlines()) for path in client_files)
body = read("Sources/SessionCore/Session/SessionClient.swift").split("public actor SessionClient {", 1)[1].split("\n}\n", 1)[0]
stored = [line for line in body.splitlines()
          if re.match(r"^    (?:(?:public|package|private|nonisolated) )*(?:let|var) \w+", line) and not line.rstrip().endswith("}")]
said_lines = re.search(r"SessionClient's code is (\d+) lines", record)
said_stored = re.search(r"The client has (\d+) stored properties", record)
if lines > 700:
    fail(f"SessionClient's files are {lines} lines, over the 700 its decision record allows")
if not said_lines or int(said_lines.group(1)) != lines:
    fail(f"the session's decision record gives SessionClient's lines as {said_lines and said_lines.group(1)}; they are {lines}")
if len(stored) > 8 or not said_stored or int(said_stored.group(1)) != len(stored):
    fail(f"SessionClient has {len(stored)} stored properties; its decision record says {said_stored and said_stored.group(1)} (at most 8)")
casts = [str(p.relative_to(root)) for p in root.glob("Sources/SessionCore/**/*.swift") if re.search(r"as\? any \w*Store", p.read_text())]
if casts:
    fail(f"a store's abilities are found by casting in {', '.join(casts)}")
print(f"drift: layout checked (SessionClient {lines} lines, {len(stored)} stored properties)")

print(f"drift: {len(failures)} disagreement(s)" if failures else "drift: the docs agree with the tree")
sys.exit(1 if failures else 0)
