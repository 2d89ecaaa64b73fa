import ArgumentParser
import Authentication
import Credentials
import CurlHTTP
import EngineExecution
import FeatureGeometry
import FeatureService
import FeatureServiceEngines
import Foundation
import Logging
import QueryLanguage
import QueryWorker
import StoredResults

/// `query-worker export`: one layer or collection's selection, fetched by the worker's engines in this process
/// (no Kafka) and written as a GeoJSON FeatureCollection: what ogr2ogr does, for an operator checking a service
/// and for the engine benchmarks, which compare it with ogr2ogr and OWSLib process for process.
struct ExportCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Fetch a layer's or collection's features with the worker's engines (no Kafka) and write them as GeoJSON.",
        discussion: """
            Give an ArcGIS layer URL (--arcgis …/FeatureServer/0), or an OGC API Features landing page and a \
            collection (--ogc URL --collection ID). The summary (count, complete, where the filter ran) goes to \
            standard error, and while pages arrive, the progress (a bar on a terminal, a line a second \
            otherwise; --no-progress: none); the features to --output (or standard output). With --store \
            s3://bucket/prefix the features go to that S3-compatible store instead (as a worker stores a large \
            result: --format, --compression; credentials the AWS way, from the environment or the shared \
            file), and the object's location (s3 URL, presigned URL, size, SHA-256) is printed as JSON. Exit \
            status 2 when the layer failed.
            """)

    @Option(help: ArgumentHelp("An ArcGIS layer URL.", valueName: "url")) var arcgis: String?
    @Option(help: ArgumentHelp("An OGC API Features landing page URL.", valueName: "url")) var ogc: String?
    @Option(help: ArgumentHelp("The OGC collection id (with --ogc).", valueName: "id")) var collection: String?
    @Option(name: .customLong("where"), help: "An ArcGIS SQL where clause (sent as CQL2 to OGC servers that support it).")
    var whereClause: String?
    @Option(help: ArgumentHelp("At most this many features.", valueName: "n")) var maxFeatures: Int?
    @Flag(help: "Leave geometries out.") var noGeometry = false
    @Option(help: ArgumentHelp("Where to write the FeatureCollection (default: standard output).", valueName: "path"))
    var output: String?
    @Option(help: ArgumentHelp("HTTP requests in flight to one host.", valueName: "n")) var maxRequestsPerHost = 8
    @Option(help: ArgumentHelp(
        "The credentials file for secured services (default: $QUERY_WORKER_CREDENTIALS_FILE; see docs/credentials.md).",
        valueName: "path"))
    var credentialsFile: String?
    @Option(help: ArgumentHelp("The credential to use among several that cover the target.", valueName: "name"))
    var credential: String?
    @Flag(
        inversion: .prefixedNo,
        help: "Show the pages and features read so far on standard error: a bar on a terminal, a line a second otherwise.")
    var progress = true
    @OptionGroup(title: "Object store")
    var storeOptions: ExportStoreOptions
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (arcgis == nil) != (ogc == nil) else { throw ValidationError("give exactly one of --arcgis and --ogc") }
        if ogc != nil, collection == nil { throw ValidationError("--ogc needs --collection") }
        if arcgis != nil, collection != nil { throw ValidationError("--collection goes with --ogc") }
        if let maxFeatures, maxFeatures < 1 { throw ValidationError("--max-features must be at least 1") }
        guard (1...64).contains(maxRequestsPerHost) else { throw ValidationError("--max-requests-per-host is 1 to 64") }
        if storeOptions.store != nil, output != nil { throw ValidationError("--store and --output exclude each other") }
    }

    func run() async throws {
        let logger = logging.makeLogger(label: "query-worker.export")
        let target: ServiceTarget = if let arcgis {
            ServiceTarget(kind: .arcgis, url: Self.trimmed(arcgis))
        } else {
            ServiceTarget(kind: .ogc, url: Self.trimmed(ogc ?? ""), layers: collection.map { [$0] })
        }
        var clause: WhereClause?
        if let whereClause {
            do { clause = try WhereClause(whereClause) } catch { throw ValidationError("--where: \(error)") }
        }
        let query = ServiceQuery(
            whereClause: clause, returnGeometry: !noGeometry, outSpatialReference: .wgs84, maxFeatures: maxFeatures,
            result: .features, credential: credential)
        let client = try HTTPClient(logger: logger)
        let limits = StandardEngines.Limits(maxRequestsPerHost: maxRequestsPerHost, requestTimeout: .seconds(60))
        let authenticator: any RequestAuthenticator
        do {
            authenticator = try credentials(client: client, logger: logger)
        } catch {
            await client.shutdown()
            throw error
        }
        let store: S3ResultStore?
        do {
            store = try storeOptions.resultStore(http: client)
        } catch {
            await client.shutdown()
            throw error
        }
        let engine = StandardEngines.router(httpClient: client, limits: limits, logger: logger, authenticator: authenticator)
        let display = ProgressDisplay()
        let budget = ResultBudget(limit: .max, progress: progress ? ExportProgress(display: display) : nil, store: store)
        let outcome = await engine.query([target], query, budget: budget).first?.first
        await store?.abortUnfinished()
        display.finish()
        await client.shutdown()
        switch outcome?.result {
        case .success(let layer)?:
            if case .stored(let stored) = layer.selection {
                printLine(ExportStoreOptions.locationJSON(stored))
            } else {
                try write(layer)
            }
            var summary = "\(layer.url): \(layer.selection.itemCount) features, count \(layer.count), complete \(layer.isComplete)"
            if let site = layer.filteredBy { summary += ", filtered by the \(site)" }
            if let reason = layer.incompleteReason { summary += " (\(reason))" }
            FileHandle.standardError.write(Data((summary + "\n").utf8))
        case .failure(let error)?:
            FileHandle.standardError.write(Data("\(error.layer): \(error.code): \(error.message)\n".utf8))
            throw ExitCode(2)
        case nil:
            throw ExitCode(2)
        }
    }

    /// The credentials of `--credentials-file` (or the worker's variable), checked as the worker checks them at
    /// start; none without a file.
    private func credentials(client: HTTPClient, logger: Logger) throws -> any RequestAuthenticator {
        let variable = SettingsKey.credentialsFile.environmentVariable
        guard let path = credentialsFile ?? ProcessInfo.processInfo.environment[variable] else { return NoAuthentication() }
        let loaded: WorkerCredentials
        do throws(CredentialsConfigurationError) {
            loaded = try WorkerCredentials.load(path: path)
        } catch {
            throw ValidationError(WorkerCredentials.startupRefusal(error, path: path))
        }
        return CredentialAuthenticator.arcGIS(
            store: loaded.store, resolver: SecretResolver(environment: ProcessInfo.processInfo.environment), client: client,
            logger: logger)
    }

    private func write(_ layer: ServiceLayerResult) throws {
        var bytes = Array(#"{"type":"FeatureCollection","features":["#.utf8)
        if case .features(let features) = layer.selection {
            for (index, json) in features.json.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                bytes.append(contentsOf: json)
            }
        }
        bytes.append(contentsOf: "]}\n".utf8)
        if let output {
            try Self.write(bytes, to: output)
        } else {
            FileHandle.standardOutput.write(Data(bytes))
        }
    }

    /// Writes `bytes` into the file at `path` in place: opened, truncated and written, never replaced by a new file
    /// (an atomic write renames over the path, which turns `/dev/null`, a FIFO or a symbolic link into a plain file).
    private static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw ValidationError("cannot write \(path): \(String(cString: strerror(errno)))") }
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw ValidationError("cannot write \(path): \(error)")
        }
    }

    private static func trimmed(_ url: String) -> String {
        url.hasSuffix("/") ? String(url.dropLast()) : url
    }
}
