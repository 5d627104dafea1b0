#!/usr/bin/env bash
# Google Sign-In's Swift surface as Swift's importer makes it, checked against GoogleSignInCompat.
# Swift code never calls an Objective-C method by its selector: the Clang importer renames it
# (`refreshTokensWithHandler:` is `refreshTokens(handler:)`). On Linux the importer runs with
# -enable-objc-interop on the transcribed headers here (GoogleSignIn4.h, GoogleSignIn5.h), and:
#  1. Tests/GoogleSignInCompatTests/GoogleSignIn5SwiftApp.swift, which the compat tests also
#     compile against GoogleSignInCompat, must type-check against 5.x's headers: every name it
#     calls is an importer name;
#  2. every method GoogleSignInCompat declares (and does not mark unavailable) is looked up on the
#     headers' classes: one the importer marks renamed fails the check; one neither version has
#     is listed as an addition.
set -euo pipefail
cd "$(dirname "$0")/../.."
here=Tests/ImportedNames
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
typecheck() {  # typecheck HEADER FILE...
    local header=$1; shift
    swiftc -frontend -typecheck -enable-objc-interop -import-objc-header "$header" "$@"
}

echo "imported names: GoogleSignIn5SwiftApp.swift against Google Sign-In 5.x's headers"
typecheck "$here/GoogleSignIn5.h" -warnings-as-errors "$here/AppTypes.swift" Tests/GoogleSignInCompatTests/GoogleSignIn5SwiftApp.swift

python3 - "$scratch" Compat/GoogleSignInCompat/*.swift > "$scratch/members.txt" <<'PY'
# One line per method GoogleSignInCompat declares: "TYPE|REFERENCE", REFERENCE as Swift spells
# an unapplied reference to it (`refreshTokens(handler:)`), or a call when it takes nothing.
import re, sys
for path in sys.argv[2:]:
    owner, in_protocol, unavailable = None, False, False
    for line in open(path):
        top = re.match(r'(?:@\w+\s+)*(?:open |public |final )*(class|protocol|extension) (\w+)', line)
        if top:
            owner, in_protocol = top.group(2), top.group(1) == 'protocol'
            continue
        if '@available(*, unavailable' in line:
            unavailable = True
            continue
        # Members of classes and extensions say open or public; a protocol's requirements say neither.
        access = r'(?:open|public)\s+' if not in_protocol else ''
        method = re.match(r'\s+(?:@\w+\s+)*' + access + r'(?:override\s+)?(class\s+)?func\s+`?(\w+)`?\((.*)\)', line)
        if method and owner and not unavailable:
            labels = []
            depth, current = 0, ''
            for ch in method.group(3):
                depth += ch in '([<'; depth -= ch in ')]>'
                if ch == ',' and depth == 0: labels.append(current); current = ''
                else: current += ch
            if current.strip(): labels.append(current)
            names = [p.split(':')[0].split()[0] for p in labels if ':' in p]
            # Without parameters, a call (only type-checked): the bare name may be ambiguous.
            reference = method.group(2) + ('(' + ''.join(n + ':' for n in names) + ')' if names else '()')
            kind = 'class ' if method.group(1) else 'any ' if in_protocol else ''
            print(f"{kind}{owner}|{reference}")
        if line.strip() and not line.strip().startswith('///'):
            unavailable = False
PY

# A probe per member, one function each, so that an error's line names the member.
awk -F'|' '{
    n = NR
    split($1, parts, " ")
    if (parts[1] == "class") printf "func probe%d() { _ = %s.%s }\n", n, parts[2], $2
    else if (parts[1] == "any") printf "func probe%d(_ x: any %s) { _ = x.%s }\n", n, parts[2], $2
    else printf "func probe%d(_ x: %s) { _ = x.%s }\n", n, $1, $2
}' "$scratch/members.txt" > "$scratch/probe.swift"
status=0
for version in 4 5; do
    typecheck "$here/GoogleSignIn$version.h" "$scratch/probe.swift" > "$scratch/errors$version.txt" 2>&1 || true
done
renamed=0 additions=() checked=0
while IFS= read -r number; do
    member=$(sed -n "${number}p" "$scratch/members.txt" | sed 's/^any //; s/^class //' | tr '|' '.')
    line="probe.swift:$number:"
    found=0
    for version in 4 5; do
        if grep -q "$line.*has been renamed to" "$scratch/errors$version.txt"; then
            echo "imported names: $member is not what Swift code calls it in Google Sign-In $version.x: $(grep "$line.*has been renamed to" "$scratch/errors$version.txt" | head -1 | sed 's/.*error: //')"
            renamed=$((renamed + 1))
        elif ! grep -q "$line.*error:" "$scratch/errors$version.txt"; then
            found=1
        fi
    done
    if [ $found = 1 ]; then checked=$((checked + 1)); else additions+=("$member"); fi
done < <(seq 1 "$(wc -l < "$scratch/members.txt")")
echo "imported names: $checked of GoogleSignInCompat's methods are Google Sign-In 4.x's or 5.x's, by the importer's names"
echo "imported names: ${#additions[@]} additions (in neither version)${additions[*]:+: ${additions[*]}}"
[ $renamed = 0 ] || { echo "imported names: $renamed method(s) carry a selector's spelling instead of the importer's name"; exit 1; }
