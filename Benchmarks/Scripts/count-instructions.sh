#!/usr/bin/env bash
# Counts the instructions one resolution costs in each scenario, with callgrind: the same count for
# the same binary whatever else the machine is doing. Each scenario runs 100,000 and 200,000
# resolutions; the difference, divided by 100,000, leaves out start-up and the semantic checks.
#
#     swift build -c release --package-path Benchmarks && bash Benchmarks/Scripts/count-instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/release/AssembliesBenchmarks}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 can't read every DWARF 5 form clang emits; instruction counts need no symbols.
strip -g -o "$work/benchmarks" "$binary"
total() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/benchmarks" --profile "$1" assemblies "$2" \
        > /dev/null 2>&1
    grep -m1 '^summary:' "$work/out" | awk '{print $2}'
}
for scenario in ${SCENARIOS:-singleton chain diamond graph cycle observed}; do
    small=$(total "$scenario" 100000)
    large=$(total "$scenario" 200000)
    echo "$scenario $(((large - small) / 100000))"
done
