// swift-tools-version: 6.0
import PackageDescription

// The recipes of the documentation (Sources/Assemblies/Assemblies.docc/Recipes.md), compiled and run
// by CI. A separate package, so the library's own Package.swift stays dependency-free:
//
//     swift run --package-path Recipes ConfigurationRecipe   # or PerRequestRecipe, SessionRecipe,
//                                                             # MethodDoubleRecipe, PluginsRecipe,
//                                                             # ObservationRecipe, LifecycleRecipe

let package = Package(
    name: "Recipes",
    // swift-configuration's floor; the library's own is lower.
    platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11), .visionOS(.v2)],
    dependencies: [
        .package(name: "Assemblies", path: ".."),
        .package(url: "https://github.com/apple/swift-configuration", from: "1.4.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.16.0"),
        .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.3.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    ],
    targets: [
        .executableTarget(
            name: "ConfigurationRecipe",
            dependencies: [
                .product(name: "Assemblies", package: "Assemblies"),
                .product(name: "Configuration", package: "swift-configuration"),
            ]
        ),
        .executableTarget(
            name: "PerRequestRecipe",
            dependencies: [.product(name: "Assemblies", package: "Assemblies")]
        ),
        .executableTarget(name: "SessionRecipe", dependencies: [.product(name: "Assemblies", package: "Assemblies")]),
        .executableTarget(
            name: "MethodDoubleRecipe",
            dependencies: [.product(name: "Assemblies", package: "Assemblies")]
        ),
        .executableTarget(name: "PluginsRecipe", dependencies: [.product(name: "Assemblies", package: "Assemblies")]),
        .executableTarget(
            name: "ObservationRecipe",
            dependencies: [
                .product(name: "Assemblies", package: "Assemblies"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
            ]
        ),
        .executableTarget(
            name: "LifecycleRecipe",
            dependencies: [
                .product(name: "Assemblies", package: "Assemblies"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ]
        ),
        .executableTarget(
            name: "MigrationRecipe",
            dependencies: [.product(name: "Assemblies", package: "Assemblies")]
        ),
        // The code of articles that declare types of the same names as others: modules of their own.
        .executableTarget(
            name: "GettingStartedExamples",
            dependencies: [.product(name: "Assemblies", package: "Assemblies")]
        ),
        .executableTarget(name: "OverviewExample", dependencies: [.product(name: "Assemblies", package: "Assemblies")]),
        .executableTarget(name: "ScopesExamples", dependencies: [.product(name: "Assemblies", package: "Assemblies")]),
        // The app that the article *Replacing Definitions in Tests* tests, and its code blocks as tests.
        .target(name: "Forecast", dependencies: [.product(name: "Assemblies", package: "Assemblies")]),
        .testTarget(
            name: "TestingArticleTests",
            dependencies: ["Forecast", .product(name: "Assemblies", package: "Assemblies")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
