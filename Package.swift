// swift-tools-version: 6.0
import PackageDescription

let package = Package(
    name: "Assemblies",
    products: [
        .library(name: "Assemblies", targets: ["Assemblies"])
    ],
    targets: [
        .target(name: "Assemblies"),
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
