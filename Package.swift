// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Assemblies",
    // `Synchronization.Atomic`, which lets a read check for test overrides in one word, needs these.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [
        .library(name: "Assemblies", targets: ["Assemblies"])
    ],
    targets: [
        .target(
            name: "Assemblies",
            dependencies: ["CAssemblies"],
            // Next to the code it explains: the invariants behind the unsafe constructs.
            exclude: ["Internal/UnsafeCode.md"]
        ),
        // Thread facts that Swift's C modules don't expose everywhere (see its header).
        .target(name: "CAssemblies"),
        .executableTarget(
            name: "Example",
            dependencies: ["Assemblies"],
            path: "Example",
            resources: [.process("Resources")]
        ),
        .testTarget(
            name: "AssembliesTests",
            dependencies: ["Assemblies"]
        ),
        .testTarget(
            name: "ExampleTests",
            dependencies: ["Example"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
