extension WorkerSettings {
    /// The operations endpoint (`/metrics`, `/health/live`, `/health/ready`, the status page): off in the library
    /// (port 0), on in the container image and the Kubernetes manifests, which set the port.
    ///
    /// It listens on loopback unless told otherwise: the status page shows the settings in force (secrets
    /// redacted) and the requests in flight, which is more than a worker should show its whole network by
    /// default. The container image sets `QUERY_WORKER_OPS_ADDRESS=0.0.0.0`, so probes and Prometheus reach it.
    package struct Operations: Sendable, Hashable {
        /// The endpoint's TCP port; 0 turns the endpoint off.
        package var port = 0
        /// The address it listens on: an IP address or host name (`0.0.0.0` for every interface).
        package var address = "127.0.0.1"
        package init() {}

        /// Whether the endpoint runs.
        package var isEnabled: Bool { port > 0 }
    }
}

extension SettingsKey {
    package static let opsPort = SettingsKey(
        "opsPort", .integer, "Port of the operations endpoint (/metrics, /health/live, /health/ready, status page at /); 0: off.")
    package static let opsAddress = SettingsKey(
        "opsAddress", .text, "Address the operations endpoint listens on (0.0.0.0: every interface; the container's default).")

    /// The operations endpoint's keys, in the order `--help` lists them.
    static let operationsKeys = [opsPort, opsAddress]

    /// ``defaultText`` of the operations keys.
    static func operationsDefaultTexts(_ defaults: WorkerSettings) -> [String: String] {
        [
            opsPort.name: "\(defaults.operations.port) (off)",
            opsAddress.name: defaults.operations.address,
        ]
    }
}

extension SettingsResolver {
    /// The operations endpoint's port and address.
    mutating func resolveOperations(_ settings: inout WorkerSettings) throws(SettingsError) {
        if let found = try find(.opsPort) { settings.operations.port = try found.integer(in: 0...65_535) }
        if let found = try find(.opsAddress) { settings.operations.address = try SettingsValidation.name(found, maxLength: 253) }
    }
}
