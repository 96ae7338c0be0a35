// swift-tools-version: 6.0
import PackageDescription

// A Hummingbird 2 notes API wired entirely by assemblies: configuration with swift-configuration,
// swift-log, a store behind a protocol, per-request graphs through a provider, async singletons,
// shutdown through swift-service-lifecycle, the graph exported and the wiring checked at launch.
// A package beside the library, not a dependency of it; `.ci/run server` builds it, tests it,
// starts it on 127.0.0.1 and sends it requests:
//
//     swift run --package-path NotesServer notes-server   # PORT=8080 by default
//     swift test --package-path NotesServer

let package = Package(
    name: "NotesServer",
    // swift-configuration's floor; the library's own is lower.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    products: [.executable(name: "notes-server", targets: ["NotesServerMain"])],
    dependencies: [
        .package(name: "Assemblies", path: ".."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .target(
            name: "NotesServer",
            dependencies: [
                .product(name: "Assemblies", package: "Assemblies"),
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "NotesServerMain",
            dependencies: ["NotesServer"]
        ),
        .testTarget(
            name: "NotesServerTests",
            dependencies: [
                "NotesServer",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
            ]
        ),
    ]
)
