import ArgumentParser
import Foundation
import Kafka
import JSONLogging
import Logging
import Metrics
import Prometheus
import ServiceLifecycle
import QueryWorker
import WorkerOperations

/// `query-worker run`: the worker, configured by flags, `QUERY_WORKER_*` variables and an optional JSON
/// file, in that order of precedence; logs are JSON lines on standard output.
///
/// Every setting has a flag (``SettingFlags``), and `--help` shows each one's variable, file key and default,
/// so that the help is the complete reference: a user never has to read the source to find a setting.
struct RunCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "run", abstract: "Consume feature-query requests and publish their outcomes.",
        discussion: """
            Each setting is read from its flag, else its \(SettingsKey.environmentPrefix)* environment variable, \
            else the JSON configuration file (--config-file or \(SettingsKey.configFileVariable)), else its \
            default; every value is checked at start, and a bad one stops the worker with a message naming it. \
            In the file, a key's dots are levels of nesting or part of the name ({"topics": {"requests": "q"}} \
            or {"topics.requests": "q"}). --set KEY=VALUE sets any setting by its file key.

            Values: lists are comma-separated; sizes are bytes or 512KiB, 1MiB, 1MB; durations are 250ms, \
            10s, 1.5m, 2h (a bare number is seconds); booleans are true/false, yes/no, on/off, 1/0.
            """)

    @OptionGroup(title: "Settings") var settingFlags: SettingFlags

    @Option(help: ArgumentHelp("A JSON settings file (or \(SettingsKey.configFileVariable)).", valueName: "path"))
    var configFile: String?
    @Option(
        name: .customLong("set"),
        help: ArgumentHelp(
            "Any setting by its file key (repeatable; e.g. topics.requests=jobs, kafka.linger.ms=5). A setting's own flag wins.",
            valueName: "key=value"))
    var settings: [String] = []

    func run() async throws {
        MallocTuning.apply(environment: ProcessInfo.processInfo.environment)
        var flags: [String: String] = [:]
        for entry in settings {
            let (key, value) = try SettingFlags.pair(entry, flag: "--set", shape: "key=value")
            flags[key] = value
        }
        flags.merge(try settingFlags.settingsFlags()) { _, flag in flag }
        let loaded: WorkerSettings.Loaded
        do {
            loaded = try WorkerSettings.load(flags: flags, configFile: configFile)
        } catch {
            throw ValidationError("\(error)")
        }
        let credentials: WorkerCredentials
        do {
            credentials = try WorkerCredentials.load(settings: loaded.settings)
        } catch {
            throw ValidationError(WorkerCredentials.startupRefusal(error, path: loaded.settings.credentialsFile))
        }
        JSONLogHandler.bootstrap(level: loaded.settings.logLevel)
        let logger = Logger(label: "query-worker")
        for warning in loaded.environmentWarnings { logger.warning("\(warning)") }
        logger.info("starting", metadata: credentials.startupMetadata(loaded.settings))
        let settings = await ClusterFetchWait.resolve(loaded.settings, logger: logger)
        do {
            try await ClusterFetchWait.checkExactlyOnce(settings, logger: logger)
        } catch {
            logger.critical("exactlyOnce refused: the cluster does not keep transactions", metadata: ["clusterId": .string(error.clusterID)])
            throw ValidationError(error.description)
        }
        // Before the worker is made: its metrics are created with the factory in force then.
        let registry = Self.bootstrapMetrics(settings.operations)
        let otlp = try OTLPExport.start(settings, logger: logger)
        let assembly = try WorkerAssembly(settings: settings, credentials: credentials, logger: logger)
        let operations = OperationsServer(settings: settings.operations, assembly: assembly, registry: registry, logger: logger)
        let heapTrim = HeapTrimService(interval: settings.memoryTrimInterval, logger: logger)
        // The OTLP exporter first (it stops last and flushes everyone's spans), then the operations endpoint.
        let leading: [any Service] = (otlp.map { [$0] } ?? []) + (operations.map { [$0] } ?? []) + (heapTrim.map { [$0] } ?? [])
        do {
            try await assembly.run(before: leading, logger: logger)
        } catch let stop as KafkaFatalStop {
            logger.critical(
                "stopping: a Kafka client failed fatally",
                metadata: [
                    "error.code": .string(stop.error.rdKafkaName ?? stop.error.code.rawValue), "error.message": .string(stop.error.message),
                    "exitCode": .stringConvertible(KafkaFatalStop.exitCode),
                ])
            printError("query-worker: \(stop)")
            throw ExitCode(KafkaFatalStop.exitCode)
        }
    }

    /// With the operations endpoint on, metrics go to a Prometheus registry it exposes (bootstrapped once per
    /// process); off, they stay swift-metrics' no-op and cost nothing.
    private static func bootstrapMetrics(_ operations: WorkerSettings.Operations) -> PrometheusCollectorRegistry {
        let registry = PrometheusCollectorRegistry()
        if operations.isEnabled { MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry)) }
        return registry
    }
}
