import ArgumentParser
import JSONLogging
import Logging
import QueryWorker

/// `query-worker run`: the worker, configured by flags, `QUERY_WORKER_*` variables and an optional JSON
/// file, in that order of precedence; logs are JSON lines on standard output.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Consume feature-query requests and publish their outcomes.")

    @Option(help: "Kafka bootstrap servers, comma-separated.")
    var bootstrapServers: String?
    @Option(help: "Consumer group id.")
    var groupId: String?
    @Option(help: "Hosts the worker may query (names, *.suffix, IPs, CIDR ranges; optional :port), comma-separated.")
    var allowedHosts: String?
    @Option(help: "Requests in flight before the worker pauses its partitions.")
    var maxInFlight: String?
    @Option(help: "How long a revoked partition's requests may take to finish (e.g. 10s).")
    var revokeTimeout: String?
    @Option(help: "How long in-flight requests may take to finish on shutdown (e.g. 30s).")
    var shutdownTimeout: String?
    @Option(help: "A JSON settings file.")
    var configFile: String?
    @Option(name: .customLong("set"), help: "Any setting as key=value (e.g. topics.requests=jobs, kafka.linger.ms=5).")
    var settings: [String] = []
    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel: String?

    func run() async throws {
        var flags: [String: String] = [:]
        for entry in settings {
            guard let equals = entry.firstIndex(of: "=") else {
                throw ValidationError("--set takes key=value, got '\(entry)'")
            }
            flags[String(entry[..<equals])] = String(entry[entry.index(after: equals)...])
        }
        let named: [(String, String?)] = [
            ("bootstrapServers", bootstrapServers), ("groupId", groupId), ("allowedHosts", allowedHosts),
            ("maxInFlight", maxInFlight), ("revokeTimeout", revokeTimeout), ("shutdownTimeout", shutdownTimeout),
            ("logLevel", logLevel),
        ]
        for case let (key, value?) in named { flags[key] = value }
        let loaded: WorkerSettings.Loaded
        do {
            loaded = try WorkerSettings.load(flags: flags, configFile: configFile)
        } catch {
            throw ValidationError("\(error)")
        }
        JSONLogHandler.bootstrap(level: loaded.settings.logLevel)
        let logger = Logger(label: "query-worker")
        logger.info("starting", metadata: loaded.settings.logMetadata)
        let assembly = try WorkerAssembly(settings: loaded.settings, logger: logger)
        try await assembly.run(logger: logger)
    }
}
