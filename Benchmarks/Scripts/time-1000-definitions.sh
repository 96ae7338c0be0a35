#!/usr/bin/env bash
# Times the release compilation of the 1,000-node scaling graph alone, written three ways in one run:
# hand-written wiring, Assemblies (1,000 definitions) and Swinject (1,000 registrations). It shows
# what a getter costs the compiler, and the machine code each definition adds (object file ÷ 1,000).
# Then the same for async getters: 500 async members, each awaiting the next, and 500 synchronous
# ones, hand-written and with Assemblies (an async getter that inlined the whole engine once took
# the compiler minutes for such a chain).
# Builds the benchmark package first (for the Assemblies and Swinject modules), then compiles each
# file by itself with -O and whole-module optimization, ROUNDS times (3 by default), interleaved.
#
#     bash Benchmarks/Scripts/time-1000-definitions.sh            # prints a Markdown table
#     ROUNDS=1 bash Benchmarks/Scripts/time-1000-definitions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
rounds="${ROUNDS:-3}"
swift build -c release --product AssembliesBenchmarks > /dev/null 2>&1
source=Sources/AssembliesBenchmarks/ScalingGraphs.swift
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
node() {
    echo "public final class Node {"
    echo "    let id: Int, first: Node?, second: Node?, third: Node?"
    echo "    public init(id: Int, _ first: Node?, _ second: Node?, _ third: Node?) {"
    echo "        (self.id, self.first, self.second, self.third) = (id, first, second, third)"
    echo "    }"
    echo "}"
}
# Public, so that whole-module optimization can't drop what nobody calls.
{
    node
    sed -n '/^enum HandWrittenScaling/,/^}/p' "$source" | sed -e 's/^enum/public enum/' \
        -e '/static func graph10()/,/^    }/d' -e '/static func graph100()/,/^    }/d' \
        -e 's/^    static func/    public static func/'
} > "$work/hand.swift"
{
    echo "import Assemblies"
    node
    sed -n '/^final class Scaling1000Assembly/,/^}/p' "$source" \
        | sed -e 's/^final class/public final class/' -e 's/Assemblies.Assembly/Assembly/' -e 's/^    var /    public var /'
} > "$work/assemblies.swift"
{
    echo "import Swinject"
    node
    sed -n '/^enum SwinjectScaling/,/^}/p' "$source" | sed -e 's/^enum/public enum/' \
        -e '/static func graph10Container()/,/^    }/d' -e '/static func graph100Container()/,/^    }/d' \
        -e 's/^    static func/    public static func/'
} > "$work/swinject.swift"
# 500 async members, each awaiting the next and reading a synchronous member.
chain=500
{
    node
    echo "public enum HandWrittenAsyncChain {"
    for k in $(seq 0 $((chain - 1))); do
        next=$([ "$k" -lt $((chain - 1)) ] && echo "await a$((k + 1))()" || echo "nil")
        echo "    public static func a$k() async -> Node { Node(id: $k, $next, s$k(), nil) }"
        echo "    public static func s$k() -> Node { Node(id: $((k + chain)), nil, nil, nil) }"
    done
    echo "}"
} > "$work/hand-async.swift"
{
    echo "import Assemblies"
    node
    echo "public final class AsyncChainAssembly: Assembly, @unchecked Sendable {"
    for k in $(seq 0 $((chain - 1))); do
        next=$([ "$k" -lt $((chain - 1)) ] && echo "await self.a$((k + 1))" || echo "nil")
        echo "    public var a$k: Node { get async { await define { Node(id: $k, $next, self.s$k, nil) } } }"
        echo "    public var s$k: Node { define { Node(id: $((k + chain)), nil, nil, nil) } }"
    done
    echo "}"
} > "$work/assemblies-async.swift"
for variant in hand assemblies swinject; do
    if [ "$(grep -c 'Node(id: ' "$work/$variant.swift")" -lt 1000 ]; then
        echo "error: $variant.swift doesn't hold the 1,000-node graph" >&2
        exit 1
    fi
done
compile() {
    # The library's internal C module must be findable, as SwiftPM makes it for its own targets.
    swiftc -O -wmo -parse-as-library -c -I .build/release/Modules \
        -Xcc -fmodule-map-file=.build/release/CAssemblies.build/module.modulemap -Xcc -I../Sources/CAssemblies/include \
        -module-name "Scaling_${1//-/_}" "$work/$1.swift" -o "$work/$1.o" 2> "$work/$1.log"
}
declare -A times
for round in $(seq "$rounds"); do
    for variant in hand assemblies swinject hand-async assemblies-async; do
        start=$(date +%s.%N)
        compile "$variant"
        end=$(date +%s.%N)
        times[$variant]="${times[$variant]:-} $(echo "$end - $start" | bc)"
    done
done
# Machine code: every .text section (the compiler gives each function one of its own).
text_bytes() { size -A "$1" | awk '$1 ~ /^\.text/ { total += $2 } END { print total }'; }
# A table of `variants`, the first of them the hand-written baseline.
table() {
    local title="$1" unit="$2"
    shift 2
    local hand_median=""
    echo "| $title | compile wall s (each round) | median | ÷ hand | object file B | machine code B per $unit |"
    echo "|---|---|---:|---:|---:|---:|"
    for variant in "$@"; do
        median=$(printf '%s\n' ${times[$variant]} | sort -n | awk '{ a[NR] = $1 } END { print a[int((NR + 1) / 2)] }')
        [ -n "$hand_median" ] || hand_median="$median"
        ratio=$(printf '%.2f' "$(echo "scale=4; $median / $hand_median" | bc)")  # 0.50, not .50
        rounded=$(printf '%s\n' ${times[$variant]} | awk '{ printf "%s%.1f", (NR > 1 ? " " : ""), $1 }')
        printf '| %s | %s | %.1f | %s× | %s | %s |\n' "$variant" "$rounded" "$median" "$ratio" \
            "$(stat -c %s "$work/$variant.o")" "$(( $(text_bytes "$work/$variant.o") / 1000 ))"
    done
}
table "1,000 nodes, release, whole module" node hand assemblies swinject
echo
table "500 async members, each awaiting the next, and 500 synchronous ones" definition hand-async assemblies-async
