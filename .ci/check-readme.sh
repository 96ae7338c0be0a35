#!/usr/bin/env bash
# Checks that the README's quick start is the code that Tests/AssembliesTests/ReadmeTests.swift
# compiles and tests: the first ```swift block after the "## Quick Start" heading of README.md must
# be byte-identical to the lines between "// BEGIN README QUICK START" and
# "// END README QUICK START" in the test file. Exits non-zero and prints a diff when they differ.
set -euo pipefail

cd "$(dirname "$0")/.."
readme="${README:-README.md}"
tests="${README_TESTS:-Tests/AssembliesTests/ReadmeTests.swift}"

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

awk '
    /^## Quick Start[[:space:]]*$/ { heading = 1; next }
    heading && !inside && /^```swift[[:space:]]*$/ { inside = 1; next }
    inside && /^```[[:space:]]*$/ { found = 1; exit }
    inside { print }
    END { if (!found) exit 1 }
' "$readme" > "$work/readme.swift" || {
    echo "error: no \`\`\`swift block after a '## Quick Start' heading in $readme" >&2
    exit 1
}

awk '
    /^\/\/ BEGIN README QUICK START$/ { inside = 1; begun = 1; next }
    /^\/\/ END README QUICK START$/ { if (inside) { ended = 1 }; inside = 0; next }
    inside { print }
    END { if (!begun || !ended) exit 1 }
' "$tests" > "$work/tests.swift" || {
    echo "error: no '// BEGIN README QUICK START' ... '// END README QUICK START' region in $tests" >&2
    exit 1
}

if ! cmp -s "$work/readme.swift" "$work/tests.swift"; then
    echo "error: the quick start in $readme differs from the one $tests compiles:" >&2
    diff -u --label "$readme (Quick Start)" --label "$tests (README QUICK START)" \
        "$work/readme.swift" "$work/tests.swift" >&2 || true
    echo "Update both so that they stay identical." >&2
    exit 1
fi
echo "README quick start matches $tests ($(wc -l < "$work/readme.swift" | tr -d ' ') lines)."
