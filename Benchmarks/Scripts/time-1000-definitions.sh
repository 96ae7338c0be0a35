#!/usr/bin/env bash
# Times the release compilation of the 1,000-definition scaling assembly alone: how much a getter's
# inlined read path costs the compiler. Builds the benchmark package first (for the Assemblies
# module), then compiles Scaling1000Assembly by itself with -O and whole-module optimization.
#
#     bash Benchmarks/Scripts/time-1000-definitions.sh
set -euo pipefail
cd "$(dirname "$0")/.."
swift build -c release --product AssembliesBenchmarks > /dev/null 2>&1
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
{
    echo "import Assemblies"
    echo "public final class Node {"
    echo "    let id: Int, first: Node?, second: Node?, third: Node?"
    echo "    public init(id: Int, _ first: Node?, _ second: Node?, _ third: Node?) {"
    echo "        (self.id, self.first, self.second, self.third) = (id, first, second, third)"
    echo "    }"
    echo "}"
    # Public, so that whole-module optimization can't drop the getters nobody calls.
    sed -n '/^final class Scaling1000Assembly/,/^}/p' Sources/AssembliesBenchmarks/ScalingGraphs.swift \
        | sed -e 's/^final class/public final class/' -e 's/^    var /    public var /'
} > "$work/Scaling1000.swift"
start=$(date +%s.%N)
# The library's internal C module must be findable, as SwiftPM makes it for its own targets.
swiftc -O -wmo -parse-as-library -c -I .build/release/Modules \
    -Xcc -fmodule-map-file=.build/release/CAssemblies.build/module.modulemap -Xcc -I../Sources/CAssemblies/include \
    -module-name Scaling1000 \
    "$work/Scaling1000.swift" -o "$work/Scaling1000.o"
end=$(date +%s.%N)
printf 'Compiled 1,000 definitions (release, whole module) in %.1f s; object file %s bytes\n' \
    "$(echo "$end - $start" | bc)" "$(stat -c %s "$work/Scaling1000.o")"
