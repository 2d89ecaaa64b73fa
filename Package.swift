// swift-tools-version:6.1
import PackageDescription

/// `NonisolatedNonsendingByDefault` (SE-0461): an async function without isolation of its own runs on its
/// caller's executor instead of hopping to the generic executor when entered. A request's async call chain runs on
/// the HTTP client's loop thread (its runner task prefers that executor), and each such hop made the runtime look
/// the task's executor preference up under its status-record lock: 42 hops per `count` request, 17 with it.
/// Every target takes it, tests and benchmarks too: Swift 6.3.1 mangles a closure-typed parameter's default
/// argument differently on the two sides of a module built with it and one without, and the link fails.
let strictSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
    .enableUpcomingFeature("InternalImportsByDefault"),
    .enableUpcomingFeature("MemberImportVisibility"),
    .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]

let metrics: Target.Dependency = .product(name: "Metrics", package: "swift-metrics")
let tracing: Target.Dependency = .product(name: "Tracing", package: "swift-distributed-tracing")
let metricsTestKit: Target.Dependency = .product(name: "MetricsTestKit", package: "swift-metrics")
let inMemoryTracing: Target.Dependency = .product(name: "InMemoryTracing", package: "swift-distributed-tracing")

let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
/// Benchmarks keep the language mode, the existential rule and the nonsending default (see `strictSwift`), not
/// the import rule (they are executables).
let benchmarkSwift: [SwiftSetting] = [
    .swiftLanguageMode(.v6), .enableUpcomingFeature("ExistentialAny"), .enableUpcomingFeature("NonisolatedNonsendingByDefault"),
]
let benchmarkEngineDependencies: [Target.Dependency] = [
    "BenchmarkSupport", "ArcGISEngine", "FeatureService", "CurlHTTP", "FeatureGeometry", "QueryLanguage",
    .product(name: "Logging", package: "swift-log"), argumentParser,
]

let package = Package(
    name: "feature-query-worker",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "query-worker", targets: ["QueryWorkerCommand"]),
        // The one public API: the client library for services that publish query jobs.
        .library(name: "FeatureQueryClient", targets: ["FeatureQueryClient"]),
        .executable(name: "sample-feature-server", targets: ["SampleFeatureServerCommand"]),
        // The benchmarks, each built and run by its script in Benchmarks/.
        .executable(name: "query-language-benchmark", targets: ["QueryLanguageBenchmark"]),
        .executable(name: "geometry-benchmark", targets: ["GeometryBenchmark"]),
        .executable(name: "kafka-benchmark", targets: ["KafkaBenchmark"]),
        .executable(name: "http-benchmark", targets: ["HTTPBenchmark"]),
        .executable(name: "arcgis-engine-benchmark", targets: ["ArcGISEngineBenchmark"]),
        .executable(name: "worker-benchmark", targets: ["WorkerBenchmark"]),
        .executable(name: "engine-cpu-benchmark", targets: ["EngineCPUBenchmark"]),
        .executable(name: "statistics-benchmark", targets: ["StatisticsBenchmark"]),
        .executable(name: "related-benchmark", targets: ["RelatedBenchmark"]),
    ],
    traits: [
        // `swift build --traits AsyncHTTPClientPeer`: the HTTP benchmark also measures AsyncHTTPClient (its peer);
        // the product never depends on it, and CI's build does not compile it.
        .trait(name: "AsyncHTTPClientPeer"),
        .default(enabledTraits: []),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-collections.git", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        // What the test servers name of Hummingbird's HTTP layer (its response parts, status codes).
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/x-sheep/swift-property-based.git", from: "2.0.1"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0"),
        // Operations: the ops endpoint's server, metrics and their Prometheus exposition, traces.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-w3c-trace-context.git", from: "1.0.0"),
        // Only the HTTP benchmark's peer, with the `AsyncHTTPClientPeer` trait.
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
    ],
    targets: [
        // System libraries: the C APIs the design card fixes. Nothing outside the bridge modules imports them.
        .systemLibrary(
            name: "CRDKafka",
            pkgConfig: "rdkafka",
            providers: [.apt(["librdkafka-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        // Small C targets for what Swift cannot call directly (variadic functions).
        .target(name: "CKafkaShims", dependencies: ["CRDKafka"]),
        .target(name: "CCurlShims", dependencies: ["CCurl"]),
        // Offline checks of client certificates and their passwords with OpenSSL (libssl-dev), so a wrong
        // password is an error at start, not at the first handshake, and libcrypto's SHA-256 for
        // FeatureQuerySupport. No OpenSSL type leaves the C side.
        .target(name: "COpenSSLShims", linkerSettings: [.linkedLibrary("crypto")]),

        // What every module shares instead of copying: JSON reading and writing (`ParsedJSON`, one string
        // escaper, one byte writer), ASCII and UTF-8 byte rules, millisecond conversions, the wall clock,
        // RFC 3339, the seeded generator, SHA-256 (libcrypto's, through COpenSSLShims). Declarations are
        // `package`: visible to this package's modules, not to embedders (swift-nio's _NIODataStructures).
        .target(name: "FeatureQuerySupport", dependencies: ["COpenSSLShims"], swiftSettings: strictSwift),
        .target(
            name: "Kafka",
            dependencies: [
                "CRDKafka",
                "CKafkaShims",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "DequeModule", package: "swift-collections"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "CurlHTTP",
            dependencies: [
                "CCurl",
                "CCurlShims",
                "COpenSSLShims",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The object store for large results (the claim check): S3 requests signed by libcurl (SigV4), multipart
        // uploads, presigned GET URLs signed in Swift, credentials from the environment, the shared file or a web
        // identity, one error model. C stays in CurlHTTP and COpenSSLShims.
        .target(name: "ObjectStore", dependencies: ["CurlHTTP", "FeatureQuerySupport"], swiftSettings: strictSwift),
        // Where clauses: parse, validate against a layer's fields, render for ArcGIS and OGC, evaluate.
        .target(name: "QueryLanguage", dependencies: ["FeatureQuerySupport"], swiftSettings: strictSwift),
        // Geometry, spatial references, Esri JSON and GeoJSON, spatial relations and a spatial index.
        .target(name: "FeatureGeometry", dependencies: ["FeatureQuerySupport"], swiftSettings: strictSwift),
        // What every engine runs its requests with: the expiring single-flight metadata cache, the per-host
        // request limiter, retry backoff and `Retry-After` (moved out of ArcGISEngine when OGC joined), and the
        // worker-side computations of feature-table queries (statistics, distinct, extent, top N in order).
        .target(
            name: "EngineExecution",
            dependencies: [
                "FeatureService", "FeatureQuerySupport", "CurlHTTP", "QueryLanguage", "FeatureGeometry", "TraceExport", metrics, tracing,
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Operator-configured credentials: the credentials file, scopes matched to target URLs, and
        // secrets read from files or the environment behind a type that never prints them. No network code.
        .target(name: "Credentials", dependencies: ["FeatureQuerySupport"], swiftSettings: strictSwift),
        // The credentials at work: tokens obtained, shared and refreshed (``CredentialAuthenticator``), token
        // calls to ArcGIS portals and OAuth endpoints, `login`'s loopback redirect listener (Hummingbird), and
        // what each request carries. The engines see it only as
        // EngineExecution's `RequestAuthenticator`.
        .target(
            name: "Authentication",
            dependencies: [
                metrics, "Credentials",
                "EngineExecution",
                "CurlHTTP",
                "FeatureQuerySupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // The seam between the worker and the engines: targets, queries, per-layer outcomes, the result budget,
        // and the router that picks an engine by the target's kind.
        .target(name: "FeatureService", dependencies: ["FeatureQuerySupport", "QueryLanguage", "FeatureGeometry"], swiftSettings: strictSwift),
        // ArcGIS REST feature queries: metadata cache, complete paging, fan-out, retries, one error model.
        .target(
            name: "ArcGISEngine",
            dependencies: [ "FeatureService",
                "EngineExecution",
                "CurlHTTP",
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // OGC API Features queries: discovery, `next`-only paging with its quirks, honest filtering, tiles.
        .target(
            name: "OGCEngine",
            dependencies: [ "FeatureService",
                "EngineExecution",
                "CurlHTTP",
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The engines a worker runs, behind one router: the only target that names every protocol's engine.
        .target(
            name: "FeatureServiceEngines",
            dependencies: [ "FeatureService",
                "ArcGISEngine",
                "OGCEngine",
                "EngineExecution",
                "CurlHTTP",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Generated ArcGIS-protocol services (LA County parcels, USA MapServer) with fault knobs, on Hummingbird.
        .target(
            name: "SampleFeatureServer",
            dependencies: [
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "SampleFeatureServerCommand",
            dependencies: [
                "SampleFeatureServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Structured logs: one JSON object per line, secrets redacted.
        .target(
            name: "JSONLogging",
            dependencies: ["FeatureQuerySupport", .product(name: "Logging", package: "swift-log")],
            swiftSettings: strictSwift
        ),
        // The worker: request contract, supersession, offsets, flow control, outcomes.
        // What the worker writes to the object store for a large result (issue 31): the object's bytes framed,
        // cut into multipart parts, hashed and counted as pages arrive, and its name.
        .target(name: "CCompressionShims", linkerSettings: [.linkedLibrary("z"), .linkedLibrary("zstd")]),
        // The streaming gzip/zstd codecs (compressor and decompressor) over CCompressionShims, without I/O: shared by
        // the worker's writer (StoredResults) and the client library's reader, which must not need the S3 bridge.
        .target(name: "StreamCompression", dependencies: ["CCompressionShims"], swiftSettings: strictSwift),
        .target(name: "StoredResults", dependencies: ["StreamCompression", "FeatureQuerySupport", "FeatureService", "ObjectStore"], swiftSettings: strictSwift),
        // The request contract as the worker reads it: one decoder, shared by the worker and the client library
        // (which checks a job before publishing it), without the worker's engines, HTTP client or servers.
        .target(
            name: "RequestContract",
            dependencies: ["FeatureService", "QueryLanguage", "FeatureGeometry", "FeatureQuerySupport", "Credentials"],
            swiftSettings: strictSwift
        ),
        // The worker's tracer and its OTLP/HTTP span exporter (protobuf written here, sent over CurlHTTP).
        .target(
            name: "TraceExport",
            dependencies: [
                "CurlHTTP", "FeatureQuerySupport", tracing,
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .target(
            name: "QueryWorker",
            dependencies: [.product(name: "UnixSignals", package: "swift-service-lifecycle"), 
                metrics,
                tracing,
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                "TraceExport",
                "Kafka",
                "RequestContract",
                "Authentication",
                "Credentials",
                "EngineExecution",
                "CurlHTTP",
                "FeatureService",
                "FeatureServiceEngines",
                // The result store (issue 31): the S3 bridge and the stored objects.
                "ObjectStore",
                "StoredResults",
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                // The status lines' direct path (WorkerEvents, JSONStatusLine).
                "JSONLogging",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "DequeModule", package: "swift-collections"),
                .product(name: "Configuration", package: "swift-configuration"),
            ],
            swiftSettings: strictSwift
        ),
        // The operations endpoint: `/metrics`, `/health/live`, `/health/ready` and the status page on
        // Hummingbird, reading the worker's status snapshot.
        .target(
            name: "WorkerOperations",
            dependencies: ["EngineExecution", 
                "QueryWorker",
                "FeatureQuerySupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // Outcomes as a consumer reads them (a split result put back together), shared by `query-worker`'s
        // commands and the client library.
        .target(name: "QueryOutcomes", swiftSettings: strictSwift),
        // The client library for services that publish query jobs: typed requests checked by the worker's own
        // decoder, one producer and one group-less outcome reader, supersession, cancel, timeouts.
        .target(
            name: "FeatureQueryClient",
            dependencies: [
                "QueryOutcomes", "RequestContract", "Kafka", "QueryLanguage", "FeatureQuerySupport",
                // Fetching a stored result (issue 31): the presigned GET over libcurl, and the codecs.
                "CurlHTTP", "StreamCompression",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .executableTarget(
            name: "QueryWorkerCommand",
            dependencies: ["RequestContract", "FeatureQueryClient", "StoredResults", "ObjectStore", .product(name: "UnixSignals", package: "swift-service-lifecycle"), 
                "WorkerOperations",
                "QueryOutcomes",
                metrics,
                .product(name: "Prometheus", package: "swift-prometheus"),
                "TraceExport",
                "Kafka",
                "QueryWorker",
                "Authentication",
                "EngineExecution",
                "Credentials",
                "JSONLogging",
                "FeatureService",
                "FeatureServiceEngines",
                "QueryLanguage",
                "FeatureGeometry",
                "SampleFeatureServer",
                "CurlHTTP",
                "FeatureQuerySupport",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),

        // Benchmarks: targets of this package (as Hummingbird keeps its performance tests), so they reach the
        // modules' `package` declarations and nothing is `public` for their sake. Each runs from its script in
        // Benchmarks/ (release builds), never from CI's test run; CI only compiles them.
        .target(name: "BenchmarkSupport", path: "Benchmarks/Sources/BenchmarkSupport", swiftSettings: benchmarkSwift),
        // Parse + validate + render throughput, and evaluation over 2.4M records, of the QueryLanguage module,
        // against a hand-written Swift closure; request messages decoded against JSONSerialization.
        // Run: swift run -c release query-language-benchmark
        .executableTarget(
            name: "QueryLanguageBenchmark", dependencies: ["QueryLanguage", "FeatureQuerySupport", "RequestContract"],
            path: "Benchmarks/Sources/QueryLanguageBenchmark",
            swiftSettings: benchmarkSwift),
        // Envelope queries through FeatureGeometry's STR packed R-tree over 2.4 million synthetic parcel boxes
        // against a linear scan in the same run, plus Esri JSON encode/decode against JSONSerialization.
        // Run: swift run -c release geometry-benchmark
        .executableTarget(
            name: "GeometryBenchmark", dependencies: ["FeatureGeometry", "FeatureQuerySupport"],
            path: "Benchmarks/Sources/GeometryBenchmark", swiftSettings: benchmarkSwift),
        // Producer and consumer throughput of the Swift Kafka bridge against the C client (librdkafka) alone,
        // on the embedded (mock) cluster. Run through run-kafka-benchmark.sh.
        .executableTarget(
            name: "KafkaBenchmark",
            dependencies: ["BenchmarkSupport", "Kafka", .product(name: "Logging", package: "swift-log"), argumentParser],
            path: "Benchmarks/Sources/KafkaBenchmark", swiftSettings: benchmarkSwift),
        // Requests per second and p50/p99 latency of CurlHTTP against wrk, libcurl alone and (with the
        // `AsyncHTTPClientPeer` trait) AsyncHTTPClient on one local nginx. Run through run-http-benchmark.sh.
        .executableTarget(
            name: "HTTPBenchmark",
            dependencies: [
                "BenchmarkSupport", "CurlHTTP", .product(name: "Logging", package: "swift-log"), argumentParser,
                .product(name: "AsyncHTTPClient", package: "async-http-client", condition: .when(traits: ["AsyncHTTPClientPeer"])),
                .product(name: "NIOCore", package: "swift-nio", condition: .when(traits: ["AsyncHTTPClientPeer"])),
            ],
            path: "Benchmarks/Sources/HTTPBenchmark", swiftSettings: benchmarkSwift),
        // The ArcGIS engine on the sample feature server against Python peers (esridump, ArcGIS API for
        // Python's selection). Run through run-arcgis-benchmark.sh.
        .executableTarget(
            name: "ArcGISEngineBenchmark",
            dependencies: benchmarkEngineDependencies,
            path: "Benchmarks/Sources/ArcGISEngineBenchmark", swiftSettings: benchmarkSwift),
        // The query worker end to end against wrk, a Python peer worker and a C floor: throughput, CPU per
        // request, supersession, memory. The worker runs as `query-worker run` children. Run through
        // run-worker-benchmark.sh.
        .executableTarget(
            name: "WorkerBenchmark",
            dependencies: benchmarkEngineDependencies + ["Kafka", "SampleFeatureServer", "FeatureQuerySupport", "QueryOutcomes"],
            path: "Benchmarks/Sources/WorkerBenchmark", swiftSettings: benchmarkSwift),
        // The ArcGIS engine's own CPU per count / ids / features query at 64 in flight, without Kafka or the
        // worker; two builds side by side with run-engine-cpu-ab.sh. Run: swift run -c release engine-cpu-benchmark
        // --layer <layer URL>
        // Grouped statistics the worker computes itself, against GDAL's SQL over the same service
        // (run-statistics-benchmark.sh).
        .executableTarget(
            name: "StatisticsBenchmark",
            dependencies: ["BenchmarkSupport", "FeatureService", "FeatureServiceEngines", "CurlHTTP", "QueryLanguage",
                           .product(name: "Logging", package: "swift-log"), argumentParser],
            path: "Benchmarks/Sources/StatisticsBenchmark", swiftSettings: benchmarkSwift),

        // Related records of 10,000 parcels through the engines, against the peers' one call per chunk
        // (run-related-benchmark.sh).
        .executableTarget(
            name: "RelatedBenchmark",
            dependencies: ["BenchmarkSupport", "FeatureService", "FeatureServiceEngines", "CurlHTTP", "QueryLanguage",
                           .product(name: "Logging", package: "swift-log"), argumentParser],
            path: "Benchmarks/Sources/RelatedBenchmark", swiftSettings: benchmarkSwift),

        .executableTarget(
            name: "EngineCPUBenchmark",
            dependencies: benchmarkEngineDependencies,
            path: "Benchmarks/Sources/EngineCPUBenchmark", swiftSettings: benchmarkSwift),

        // The Kafka bridge's suites and the `query-worker` commands' processes against the embedded cluster.
        .testTarget(
            name: "KafkaTests",
            dependencies: [
                "ChildProcessFixture",
                // `query --wait` fetching stored results and `export --store`, against moto.
                "ObjectStoreFixture", "StoredResults", "FeatureQuerySupport",
                "Kafka",
                "KafkaTestSupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            exclude: ["Interop"],
            swiftSettings: strictSwift
        ),
        // The Kafka bridge's suites that take an embedded broker down (faults, shutdown with the broker gone,
        // rebalances, backpressure): a target of their own, so scripts/test runs them in a process of their own.
        .testTarget(
            name: "KafkaBrokerFaultTests",
            dependencies: ["Kafka", "KafkaTestSupport"],
            swiftSettings: strictSwift
        ),
        // Test code only: what the Kafka bridge's test targets share (a logger, unique names, clients of an
        // embedded cluster, reading with a deadline).
        .target(
            name: "KafkaTestSupport",
            dependencies: ["Kafka", .product(name: "Logging", package: "swift-log")],
            path: "Tests/KafkaTestSupport",
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "CurlHTTPTests",
            dependencies: [.product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"), 
                "ChildProcessFixture",
                "CurlHTTP",
                "HTTPTestServer",
                "FeatureQuerySupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            exclude: ["Fixtures"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "QueryLanguageTests",
            dependencies: [
                "QueryLanguage", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "FeatureGeometryTests",
            dependencies: [
                "FeatureGeometry", "FeatureQuerySupport", .product(name: "PropertyBased", package: "swift-property-based"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "SampleFeatureServerTests",
            dependencies: [
                "SampleFeatureServer",
                "CurlHTTP",
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ArcGISEngineTests",
            dependencies: [.product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"), 
                metricsTestKit, inMemoryTracing, metrics, tracing,
                "EngineTestSupport",
                "ArcGISEngine",
                "EngineExecution",
                "FeatureService",
                "SampleFeatureServer",
                "HTTPTestServer",
                "CurlHTTP",
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // EngineExecution's own suites: the per-host limiter, the expiring metadata cache, retry backoff, URI
        // references and the worker-side computations (Aggregation/), without an engine around them.
        // The tracer, its queue and the OTLP exporter against a loopback collector.
        .testTarget(
            name: "TraceExportTests",
            dependencies: [
                "TraceExport", "HTTPTestServer", "ChildProcessFixture", tracing,
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "EngineExecutionTests",
            dependencies: ["EngineExecution", "EngineTestSupport", "FeatureService", "FeatureQuerySupport", "QueryLanguage", "FeatureGeometry"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "OGCEngineTests",
            dependencies: [.product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"), 
                metricsTestKit, metrics, "EngineTestSupport",
                "OGCEngine",
                "FeatureService",
                "FeatureServiceEngines",
                "EngineExecution",
                "SampleFeatureServer",
                "PygeoapiFixture",
                "HTTPTestServer",
                "CurlHTTP",
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The worker's unit and in-process suites: settings, the contract, coordination, the core's state machine,
        // the host policy, metrics' catalog, the documentation checks, `query-worker run --help`.
        .testTarget(
            name: "QueryWorkerTests",
            dependencies: ["RequestContract", "ObjectStore", "StoredResults",
                metricsTestKit, metrics,
                "QueryWorker",
                "TraceExport",
                "WorkerTestSupport",
                "ChildProcessFixture",
                "RequestFuzzing",
                "Authentication",
                "Credentials",
                "EngineExecution",
                "FeatureService",
                "JSONLogging",
                "Kafka",
                "CurlHTTP",
                "ArcGISEngine",
                "SampleFeatureServer",
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                tracing,
                .product(name: "W3CTraceContext", package: "swift-w3c-trace-context"),
            ],
            swiftSettings: strictSwift
        ),
        // The client library's suites: its state machine without I/O, and end to end against an in-process
        // worker on the embedded cluster with the sample feature server.
        .testTarget(
            name: "StoredResultsTests",
            dependencies: ["StoredResults", "FeatureQuerySupport", "ChildProcessFixture"],
            swiftSettings: strictSwift
        ),
        // The client library reading stored results (issue 31): the codecs and the object pipeline without I/O,
        // locations in outcomes, and fetching from moto what the worker's writer stored there.
        .testTarget(
            name: "StoredResultClientTests",
            dependencies: [
                "FeatureQueryClient", "StoredResults", "StreamCompression", "ObjectStore", "ObjectStoreFixture", "CurlHTTP",
                "FeatureQuerySupport", .product(name: "PropertyBased", package: "swift-property-based"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "FeatureQueryClientTests",
            dependencies: [
                "FeatureQueryClient", "QueryOutcomes", "WorkerTestSupport", "QueryWorker", "SampleFeatureServer", "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // The JSON log handler's suites (redaction, batching, concurrency, reserved keys).
        .testTarget(
            name: "JSONLoggingTests",
            dependencies: [
                "JSONLogging", "FeatureGeometry", "FeatureQuerySupport", .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The worker end to end: in process or as `query-worker run` processes, through the embedded Kafka
        // cluster and the sample feature server (ArcGIS and OGC, secured and not, faults, lifecycle, metrics,
        // tracing).
        .testTarget(
            name: "WorkerIntegrationTests",
            dependencies: [
                metricsTestKit, inMemoryTracing, metrics, tracing,
                "QueryWorker",
                "WorkerTestSupport",
                "RequestFuzzing",
                "EngineExecution",
                "JSONLogging",
                "Kafka",
                "CurlHTTP",
                "SampleFeatureServer",
                "PygeoapiFixture",
                "ChildProcessFixture",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            swiftSettings: strictSwift
        ),
        // The worker's result store end to end (issue 31): a stored layer through Kafka into moto and read back. A
        // target of its own so that it runs outside the worker's process (scripts/test's "every other target"):
        // its 20,000 features with geometry grew that process's resident memory, which the worker's fault mix
        // measures.
        .testTarget(
            name: "WorkerResultStoreTests",
            dependencies: [
                "QueryWorker", "WorkerTestSupport", "SampleFeatureServer", "ObjectStoreFixture", "FeatureQuerySupport",
            ],
            swiftSettings: strictSwift
        ),
        // The worker's suite that takes the embedded broker down under `query-worker run` processes (shutdown
        // whatever Kafka does): scripts/test runs it with KafkaBrokerFaultTests, in a process of their own.
        .testTarget(
            name: "WorkerBrokerFaultTests",
            dependencies: ["QueryWorker", "WorkerTestSupport", "Kafka", "SampleFeatureServer", "ChildProcessFixture"],
            swiftSettings: strictSwift
        ),
        // The worker against Kafka outages, crash loops and exactly-once (`query-worker run` processes against
        // `query-worker embedded-kafka` processes, thousands of requests): a process of their own in scripts/test.
        .testTarget(
            name: "WorkerOutageTests",
            dependencies: [
                "QueryWorker",
                "FeatureQueryClient",
                "WorkerTestSupport",
                "ChildProcessFixture",
                "Kafka",
                "CurlHTTP",
                "SampleFeatureServer",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // The worker's credentials through nginx and apache in front of the sample server (Basic, Digest, NTLM,
        // Kerberos, certificates) and the leak check: a process of their own in scripts/test.
        .testTarget(
            name: "WorkerNetworkFrontTests",
            dependencies: [
                "QueryWorker",
                "WorkerTestSupport",
                "NetworkAuthFixture",
                "SampleFeatureServer",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Test code only: what the worker's test targets share: the in-process worker harnesses (plain and
        // secured) against the embedded cluster and the sample server, the lifecycle rig, `query-worker` child
        // processes and commands, the contract's files and schema validator, credentials files, the metric
        // catalog check. `package` declarations over the worker's `package` API, so it builds in release too.
        .target(
            name: "WorkerTestSupport",
            dependencies: ["RequestContract", "ChildProcessFixture", 
                metricsTestKit,
                "QueryWorker",
                "Authentication",
                "Credentials",
                "EngineExecution",
                "JSONLogging",
                "Kafka",
                "SampleFeatureServer",
                "QueryLanguage",
                "FeatureGeometry",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/WorkerTestSupport",
            swiftSettings: strictSwift
        ),
        // Test code only: hostile messages for the requests topic (the contract's examples mutated, random
        // bytes), seeded, and what the decoder must answer to them; shared by QueryWorkerTests and the
        // `RequestFuzz` tool of Fuzz/run-request-fuzz.sh, without making the generator the worker's API.
        .target(
            name: "RequestFuzzing",
            dependencies: ["RequestContract", "FeatureGeometry", "QueryWorker", "FeatureQuerySupport"],
            path: "Tests/RequestFuzzing",
            swiftSettings: strictSwift
        ),
        // Not a product: Fuzz/run-request-fuzz.sh builds it (release) to decode a million hostile messages and
        // to write the messages of the live run (Benchmarks/python/request_fuzz_live.py).
        .executableTarget(
            name: "RequestFuzz",
            dependencies: ["RequestFuzzing", "RequestContract", "QueryWorker", "QueryLanguage", "FeatureQuerySupport"],
            path: "Fuzz/RequestFuzz",
            swiftSettings: strictSwift
        ),
        // Test code only (no product names it): PostgreSQL with PostGIS and pygeoapi (the independent OGC API
        // Features server) as child processes, with the sample data loaded, for any test target to depend on.
        // The engines' test double for the credentials seam, shared by both engines' suites.
        .target(
            name: "EngineTestSupport", dependencies: ["EngineExecution", "FeatureService"], path: "Tests/EngineTestSupport",
            swiftSettings: strictSwift),
        // Test code only: fake HTTP servers as Hummingbird applications on loopback, with counters of what their
        // connections saw (reuse, a client giving up) for the tests of the HTTP client and the engines.
        .target(
            name: "HTTPTestServer",
            dependencies: [.product(name: "NIOHTTPTypes", package: "swift-nio-extras"), 
                "FeatureQuerySupport",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
            ],
            path: "Tests/HTTPTestServer",
            swiftSettings: strictSwift
        ),
        // Test fixtures' child processes (servers watched so none outlives its test, one-shot tools).
        .target(name: "ChildProcessFixture", path: "Tests/ChildProcessFixture", swiftSettings: strictSwift),
        .target(
            name: "PygeoapiFixture",
            dependencies: [
                "ChildProcessFixture",
                "SampleFeatureServer",
                "CurlHTTP",
                .product(name: "Logging", package: "swift-log"),
            ],
            path: "Tests/PygeoapiFixture",
            swiftSettings: strictSwift
        ),
        // Test code only: moto (`moto[server]` from the venv) as a watched child process with signature checking
        // on (an IAM user's keys), and the independent clients that read what the object store bridge wrote
        // (boto3, the AWS CLI, curl).
        .target(
            name: "ObjectStoreFixture",
            dependencies: ["ChildProcessFixture", "CurlHTTP", "ObjectStore", "StoredResults", .product(name: "Logging", package: "swift-log")],
            path: "Tests/ObjectStoreFixture",
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "ObjectStoreTests",
            dependencies: ["StoredResults", "FeatureService",
                "ObjectStore", "ObjectStoreFixture", "HTTPTestServer", "CurlHTTP", "FeatureQuerySupport", "ChildProcessFixture",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "PygeoapiTests",
            dependencies: [
                "PygeoapiFixture",
                "CurlHTTP",
                "QueryLanguage",
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        // Test code only: real servers with network authentication as child processes in a temporary folder
        // (nginx with Basic and TLS with a private CA and client certificates, apache2 with Digest and
        // Kerberos from a private KDC, an NTLM server on pyspnego), each able to proxy to an upstream.
        .target(
            name: "NetworkAuthFixture",
            dependencies: ["ChildProcessFixture"],
            path: "Tests/NetworkAuthFixture",
            exclude: ["Resources"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "NetworkAuthTests",
            dependencies: [.product(name: "HummingbirdCore", package: "hummingbird"), .product(name: "HTTPTypes", package: "swift-http-types"), 
                "ChildProcessFixture",
                "NetworkAuthFixture",
                "SampleFeatureServer",
                "CurlHTTP",
                "HTTPTestServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "AuthenticationTests",
            dependencies: [
                metricsTestKit, metrics, "Authentication",
                "Credentials",
                "EngineExecution",
                "CurlHTTP",
                "SampleFeatureServer",
                "HTTPTestServer",
                .product(name: "Hummingbird", package: "hummingbird"),
                "FeatureQuerySupport",
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "CredentialsTests",
            dependencies: ["Credentials"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "FeatureQuerySupportTests",
            dependencies: ["FeatureQuerySupport"],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "WorkerOperationsTests",
            dependencies: [
                "WorkerOperations",
                "QueryWorker",
                "ChildProcessFixture",
                "CurlHTTP",
                "FeatureQuerySupport",
                "Kafka",
                "SampleFeatureServer",
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                metrics,
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: strictSwift
        ),
        .testTarget(
            name: "DeploymentTests",
            // QueryWorker and Credentials: the Kubernetes manifests' settings file and example credentials
            // are loaded by the worker's own loaders; EngineExecution: the metrics' name prefix; Fixtures: the Python
            // validator, CRDs, promtool tests.
            dependencies: ["QueryWorker", "Credentials", "EngineExecution", "ChildProcessFixture", .product(name: "Yams", package: "Yams")],
            exclude: ["Fixtures"],
            swiftSettings: strictSwift
        ),
    ]
)
