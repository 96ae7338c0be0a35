#!/usr/bin/env bash
# Type-checks each file in .ci/compile-failures against the library built by `.ci/run build`, and
# checks what the compiler says: the messages users see when they misuse the API at compile time.
#
# A file's `// expect: TEXT` lines must all appear in the compiler's output, and the file must fail
# to compile; a file with `// expect: compiles` must compile without a warning.
set -euo pipefail
cd "$(dirname "$0")/.."
build="${1:-.build-werror}/debug"
SWIFT="${SWIFT:-swift}"
failures=0
for file in .ci/compile-failures/*.swift; do
    status=0
    output="$("$SWIFT" frontend -typecheck -swift-version 6 \
        -I "$build/Modules" -Xcc -fmodule-map-file="$build/CAssemblies.build/module.modulemap" \
        "$file" 2>&1)" || status=$?
    if grep -q "^// expect: compiles$" "$file"; then
        if [ "$status" -ne 0 ] || grep -q "warning:" <<< "$output"; then
            echo "FAIL $file: should compile without warnings, but:"
            echo "$output"
            failures=$((failures + 1))
        else
            echo "ok   $file: compiles"
        fi
        continue
    fi
    before=$failures
    if [ "$status" -eq 0 ]; then
        echo "FAIL $file: compiled, but should fail"
        failures=$((failures + 1))
        continue
    fi
    while IFS= read -r expected; do
        if ! grep -qF -- "$expected" <<< "$output"; then
            echo "FAIL $file: the compiler didn't say: $expected"
            echo "$output"
            failures=$((failures + 1))
        fi
    done < <(sed -n 's|^// expect: ||p' "$file")
    [ "$failures" -eq "$before" ] && echo "ok   $file"
done
if [ "$failures" -ne 0 ]; then
    echo "error: $failures compile-time diagnostics differ from what .ci/compile-failures expects" >&2
    exit 1
fi
