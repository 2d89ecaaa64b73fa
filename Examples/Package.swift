// swift-tools-version:6.1
import PackageDescription

// A service's view of the feature-query workers: this package uses only the public `FeatureQueryClient`
// product of the repository's root package, as a team that copies it would. It depends on the root by path, so
// CI (scripts/test) builds it against the code of the same commit.
let package = Package(
    name: "feature-query-examples",
    // macOS 26 for `Task.immediate` (Run.swift); Linux has it with Swift 6.2.
    platforms: [.macOS("26.0")],
    products: [.executable(name: "job-submitter", targets: ["JobSubmitter"])],
    dependencies: [
        .package(name: "feature-query-worker", path: ".."),
        // The versions the root package already uses (resolved here to the same ones).
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // No swift-argument-parser: its build costs more than the few flags parsed by hand (Examples/README.md).
        .executableTarget(
            name: "JobSubmitter",
            dependencies: [
                .product(name: "FeatureQueryClient", package: "feature-query-worker"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "UnixSignals", package: "swift-service-lifecycle"),
            ],
            swiftSettings: [
                .swiftLanguageMode(.v6),
                .enableUpcomingFeature("ExistentialAny"),
                .enableUpcomingFeature("MemberImportVisibility"),
            ]
        ),
    ]
)
