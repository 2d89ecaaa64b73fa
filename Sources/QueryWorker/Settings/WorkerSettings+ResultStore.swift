import ObjectStore

extension WorkerSettings {
    /// The object store large results go to (issue 31's claim check): off unless `resultStore` names a bucket.
    ///
    /// Credentials are not settings: the worker takes them the AWS way (the environment's `AWS_ACCESS_KEY_ID` and
    /// `AWS_SECRET_ACCESS_KEY`, a web-identity token file with `AWS_ROLE_ARN` as Kubernetes' IRSA sets them, or the
    /// shared credentials file), so no settings file, status page or start-up line can show them.
    package struct ResultStore: Sendable, Hashable {
        /// `s3://bucket/prefix`; `nil`: no store (results travel in Kafka only, `delivery: store` is refused).
        package var location: String?
        /// A non-AWS endpoint (MinIO, Ceph, moto), addressed path-style: `http://127.0.0.1:9000`; `nil`: AWS.
        package var endpoint: String?
        /// The region requests are signed for; `nil`: `AWS_REGION`, else `AWS_DEFAULT_REGION`, else `us-east-1`
        /// (``resolvedRegion(environment:)``).
        package var region: String?
        /// A layer of a `delivery: auto` request goes to the store once it holds more than this many bytes.
        package var thresholdBytes = 1 << 20
        /// The multipart upload's part size: at least S3's 5 MiB (the settings refuse less; a test may set less
        /// on the struct for a store that allows it). Two parts per stored layer are in memory at most.
        package var partBytes = 8 << 20
        /// How long the presigned GET URL a result carries works (1 s to 7 days, S3's bound).
        package var urlLifetime: Duration = .seconds(3600)
        package init() {}

        /// Whether a store is configured.
        package var isEnabled: Bool { location != nil }

        /// S3's smallest part but the last.
        package static let minimumPartBytes = 5 << 20

        /// The region in force: the setting, else the AWS SDKs' variables, else `us-east-1`.
        package func resolvedRegion(environment: [String: String]) -> String {
            region ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1"
        }
    }
}

extension SettingsKey {
    package static let resultStore = SettingsKey(
        "resultStore", .text,
        "Object store for large results, s3://bucket/prefix (credentials from the AWS environment, shared file or web identity).")
    package static let resultStoreEndpoint = SettingsKey(
        "resultStoreEndpoint", .text, "With resultStore: a non-AWS S3 endpoint (MinIO, Ceph), path-style, e.g. http://127.0.0.1:9000.")
    package static let resultStoreRegion = SettingsKey("resultStoreRegion", .text, "With resultStore: the region requests are signed for.")
    package static let resultStoreThreshold = SettingsKey(
        "resultStoreThreshold", .size, "With resultStore: a layer of a delivery: auto request larger than this is stored.")
    package static let resultStorePartBytes = SettingsKey(
        "resultStorePartBytes", .size, "With resultStore: multipart part size, 5MiB to 5GiB (two parts in memory per stored layer).")
    package static let resultStoreUrlLifetime = SettingsKey(
        "resultStoreUrlLifetime", .duration, "With resultStore: how long a result's presigned GET URL works, 1s to 7 days.")

    /// The result store's keys, in the order `--help` lists them.
    static let resultStoreKeys = [
        resultStore, resultStoreEndpoint, resultStoreRegion, resultStoreThreshold, resultStorePartBytes, resultStoreUrlLifetime,
    ]

    /// ``defaultText`` of the result store's keys.
    static func resultStoreDefaultTexts(_ defaults: WorkerSettings) -> [String: String] {
        [
            resultStore.name: "none (results travel in Kafka only; delivery: store is refused)",
            resultStoreEndpoint.name: "none (AWS)",
            resultStoreRegion.name: "AWS_REGION, else AWS_DEFAULT_REGION, else us-east-1",
            resultStoreThreshold.name: sizeText(defaults.resultStore.thresholdBytes),
            resultStorePartBytes.name: sizeText(defaults.resultStore.partBytes),
            resultStoreUrlLifetime.name: "1h",
        ]
    }
}

extension SettingsResolver {
    /// The result store's settings: the location and endpoint are parsed here, so a typo fails at start.
    mutating func resolveResultStore(_ settings: inout WorkerSettings) throws(SettingsError) {
        if let found = try find(.resultStore) { settings.resultStore.location = try SettingsValidation.resultStore(found) }
        if let found = try find(.resultStoreEndpoint) {
            settings.resultStore.endpoint = try SettingsValidation.resultStoreEndpoint(found)
        }
        if let found = try find(.resultStoreRegion) {
            let region = try SettingsValidation.name(found, maxLength: 64)
            guard region.utf8.allSatisfy({ $0 == UInt8(ascii: "-") || (0x30...0x39).contains($0) || (0x61...0x7A).contains($0) }) else {
                throw found.error("resultStoreRegion must be a region name like us-east-1 (lowercase letters, digits, '-')")
            }
            settings.resultStore.region = region
        }
        if let found = try find(.resultStoreThreshold) { settings.resultStore.thresholdBytes = try found.size(in: 0...(16 << 30)) }
        if let found = try find(.resultStorePartBytes) {
            settings.resultStore.partBytes = try found.size(in: WorkerSettings.ResultStore.minimumPartBytes...(5 << 30))
        }
        if let found = try find(.resultStoreUrlLifetime) {
            let lifetime = try found.duration()
            guard lifetime >= .seconds(1) else { throw found.error("resultStoreUrlLifetime must be at least 1s") }
            settings.resultStore.urlLifetime = lifetime
        }
    }
}

extension SettingsValidation {
    /// `s3://bucket/prefix` as ObjectStore's ``S3Location`` reads it (S3's bucket naming rules).
    static func resultStore(_ found: FoundSetting) throws(SettingsError) -> String {
        let text = try found.text()
        do {
            _ = try S3Location(parsing: text)
        } catch {
            throw found.error("resultStore must be s3://bucket/prefix: \(error.message)")
        }
        return text
    }

    /// An `http://` or `https://` endpoint with a host, as ObjectStore's ``S3Endpoint`` reads it.
    static func resultStoreEndpoint(_ found: FoundSetting) throws(SettingsError) -> String {
        let text = try found.text()
        guard text.hasPrefix("http://") || text.hasPrefix("https://") else {
            throw found.error("resultStoreEndpoint must be an http:// or https:// URL, e.g. http://127.0.0.1:9000")
        }
        do {
            _ = try S3Endpoint(url: text)
        } catch {
            throw found.error("resultStoreEndpoint must be an http:// or https:// URL with a host: \(error.message)")
        }
        return text
    }
}
