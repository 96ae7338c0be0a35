// swift-tools-version: 6.0
import PackageDescription

// Benchmarks for Assemblies: hand-written wiring vs Assemblies vs Swinject, in one process.
//
// A separate package, so the library's own Package.swift stays dependency-free. Run it with
//
//     swift run -c release --package-path Benchmarks AssembliesBenchmarks           # full run, minutes
//     swift run -c release --package-path Benchmarks AssembliesBenchmarks --quick   # seconds, for CI

let package = Package(
    name: "Benchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(name: "Assemblies", path: ".."),
        .package(url: "https://github.com/Swinject/Swinject", exact: "2.10.0"),
    ],
    targets: [
        .executableTarget(
            name: "AssembliesBenchmarks",
            dependencies: [
                .product(name: "Assemblies", package: "Assemblies"),
                .product(name: "Swinject", package: "Swinject"),
                "AllocationCounter",
            ]
        ),
        // Counts heap allocations by defining malloc and friends in the executable (glibc only).
        // Exporting the executable's symbols makes every shared library see those definitions.
        .target(
            name: "AllocationCounter",
            linkerSettings: [.unsafeFlags(["-Xlinker", "--export-dynamic"], .when(platforms: [.linux]))]
        ),
    ],
    swiftLanguageModes: [.v6]
)
