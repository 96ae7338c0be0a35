#!/usr/bin/env bash
# Counts the instructions one resolution costs in each scenario, hand-written and with Assemblies,
# with callgrind: the same count for the same binary whatever else the machine is doing. Each
# scenario runs N and 2N resolutions (N = 100,000; 20,000 for the async ones); the difference,
# divided by N, leaves out start-up and the semantic checks. Prints a Markdown table.
#
#     swift build -c release --package-path Benchmarks && bash Benchmarks/Scripts/count-instructions.sh
#     SCENARIOS="graph cycle" bash Benchmarks/Scripts/count-instructions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
binary="${1:-.build/release/AssembliesBenchmarks}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# valgrind 3.19 can't read every DWARF 5 form clang emits; instruction counts need no symbols.
strip -g -o "$work/benchmarks" "$binary"
total() {
    valgrind --tool=callgrind --callgrind-out-file="$work/out" "$work/benchmarks" --profile "$1" "$2" "$3" \
        > /dev/null 2>&1
    grep -m1 '^summary:' "$work/out" | awk '{print $2}'
}
per_resolution() {
    local count=100000
    case "$1" in async-*) count=20000 ;; esac
    local small large
    small=$(total "$1" "$2" "$count")
    large=$(total "$1" "$2" $((count * 2)))
    echo $(((large - small) / count))
}
echo "| scenario | hand-written | Assemblies | Assemblies ÷ hand |"
echo "|---|---:|---:|---:|"
# The two *-elsewhere scenarios read while another task's overrides of the family apply; the last five
# are single reads whose cost the documentation quotes (ScopeCosts.swift).
for scenario in ${SCENARIOS:-singleton chain diamond graph cycle observed singleton-elsewhere graph-elsewhere \
    async-singleton async-graph prototype prototype-arguments singleton-arguments weak-singleton resettable}; do
    assemblies=$(per_resolution "$scenario" assemblies)
    case "$scenario" in
    *-elsewhere)
        # The same reads of the same assembly class, in a family nobody overrides, are the baseline: what
        # another task's overrides cost.
        hand=$(per_resolution "$scenario" quiet)
        printf '| %s (another task overrides the family) ÷ the same undisturbed | %s | %s | %.2f× |\n' \
            "${scenario%-elsewhere}" "$hand" "$assemblies" "$(echo "scale=4; $assemblies / $hand" | bc)"
        continue
        ;;
    esac
    if [ "$scenario" = observed ]; then
        # The same graph unobserved is its baseline: what observing costs.
        hand=$(per_resolution graph assemblies)
        printf '| observed graph (10) ÷ the same unobserved | %s | %s | %.2f× |\n' "$hand" "$assemblies" \
            "$(echo "scale=4; $assemblies / $hand" | bc)"
        continue
    fi
    hand=$(per_resolution "$scenario" hand)
    printf '| %s | %s | %s | %.2f× |\n' "$scenario" "$hand" "$assemblies" "$(echo "scale=4; $assemblies / $hand" | bc)"
done
