// swift-tools-version:6.1
// Benchmarks for feature-query-worker. Not built or run by CI: each benchmark has its own script in this
// folder (run-kafka-benchmark.sh, ...). Build with `swift build -c release` here; this package keeps its own
// .build, separate from the main package's.
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let package = Package(
    name: "feature-query-worker-benchmarks",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "query-language-benchmark", targets: ["QueryLanguageBenchmark"]),
        .executable(name: "geometry-benchmark", targets: ["GeometryBenchmark"]),
        .executable(name: "kafka-benchmark", targets: ["KafkaBenchmark"]),
        .executable(name: "http-benchmark", targets: ["HTTPBenchmark"]),
        .executable(name: "arcgis-engine-benchmark", targets: ["ArcGISEngineBenchmark"]),
        .executable(name: "worker-benchmark", targets: ["WorkerBenchmark"]),
        .executable(name: "engine-cpu-benchmark", targets: ["EngineCPUBenchmark"]),
    ],
    dependencies: [
        .package(name: "feature-query-worker", path: ".."),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        // Only for the HTTP benchmark's comparison; the product (CurlHTTP) does not depend on it.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // What the benchmarks share: output formatting and running peer processes.
        .target(name: "BenchmarkSupport", swiftSettings: swiftSettings),
        // Parse + validate + render throughput, and evaluation over 2.4M records, of the QueryLanguage module,
        // against a hand-written Swift closure. Run: swift run -c release query-language-benchmark
        .executableTarget(
            name: "QueryLanguageBenchmark",
            dependencies: [.product(name: "QueryLanguage", package: "feature-query-worker")],
            swiftSettings: swiftSettings
        ),
        // Envelope queries through FeatureGeometry's STR packed R-tree over 2.4 million synthetic parcel boxes
        // against a linear scan in the same run (target: map-view query under 5 ms), plus Esri JSON
        // encode/decode against JSONSerialization. Run: swift run -c release geometry-benchmark
        .executableTarget(
            name: "GeometryBenchmark",
            dependencies: [
                .product(name: "FeatureGeometry", package: "feature-query-worker"),
                .product(name: "FeatureQuerySupport", package: "feature-query-worker"),
            ],
            swiftSettings: swiftSettings
        ),
        // Producer and consumer throughput of the Swift Kafka bridge against the C client (librdkafka) alone,
        // on the embedded (mock) cluster. Run through run-kafka-benchmark.sh.
        .executableTarget(
            name: "KafkaBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "Kafka", package: "feature-query-worker"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // Requests per second and p50/p99 latency of CurlHTTP against wrk and AsyncHTTPClient, on one local
        // nginx, at concurrency 1 and 64. Run through run-http-benchmark.sh.
        .executableTarget(
            name: "HTTPBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "CurlHTTP", package: "feature-query-worker"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // The ArcGIS engine on the sample feature server against Python peers: a whole layer as GeoJSON against
        // esridump (target: 5x faster), and a 2.4-million-id selection against what ArcGIS API for Python
        // does (target: peak RSS under 200 MB). Run through run-arcgis-benchmark.sh.
        .executableTarget(
            name: "ArcGISEngineBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ArcGISEngine", package: "feature-query-worker"),
                .product(name: "CurlHTTP", package: "feature-query-worker"),
                .product(name: "FeatureGeometry", package: "feature-query-worker"),
                .product(name: "QueryLanguage", package: "feature-query-worker"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // The query worker end to end: throughput against wrk replaying the same query requests (target:
        // 0.8x wrk), supersession → abort at the server against a raw engine cancel (target: p99 < 5 ms),
        // peak RSS with 1,000 requests in flight (target: < 150 MB). The worker runs as `query-worker run`
        // children. Run through run-worker-benchmark.sh.
        .executableTarget(
            name: "WorkerBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ArcGISEngine", package: "feature-query-worker"),
                .product(name: "CurlHTTP", package: "feature-query-worker"),
                .product(name: "FeatureGeometry", package: "feature-query-worker"),
                .product(name: "QueryLanguage", package: "feature-query-worker"),
                .product(name: "Kafka", package: "feature-query-worker"),
                .product(name: "SampleFeatureServer", package: "feature-query-worker"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
        // The ArcGIS engine's own CPU per count / ids / features query at 64 in flight, without Kafka or the
        // worker (issue 14 item 1, the engine's share). Small enough for callgrind. Run:
        // swift run -c release engine-cpu-benchmark --layer <sample server>/LA_County_Parcels/FeatureServer/0
        .executableTarget(
            name: "EngineCPUBenchmark",
            dependencies: [
                "BenchmarkSupport",
                .product(name: "ArcGISEngine", package: "feature-query-worker"),
                .product(name: "CurlHTTP", package: "feature-query-worker"),
                .product(name: "FeatureGeometry", package: "feature-query-worker"),
                .product(name: "QueryLanguage", package: "feature-query-worker"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
