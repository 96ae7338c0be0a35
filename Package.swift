// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Assemblies",
    // Factory's floor. What the code relies on, and why each feature is there on these versions:
    // Sources/Assemblies/Assemblies.docc/Platforms.md.
    platforms: [.macOS(.v10_15), .iOS(.v13), .tvOS(.v13), .watchOS(.v6), .visionOS(.v1)],
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
        // Thread and task facts that Swift's C modules don't expose everywhere (see its header).
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
