import ArgumentParser
import Foundation
import Logging

/// `query-worker query`: publish one request and, with `--wait`, print its outcome.
///
/// The first thing a user tries against a running worker, so the help says what it sends, what it
/// prints and what the exit status means, with examples that work against the sample feature server.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Publish a feature-query request; with --wait, print its outcome.",
        usage: """
            query-worker query --target <url> [--target <url> ...] [--layers <ids>]
                               [--where <clause> | --named-where <name>] [--extent <box>]
                               [--result ids|count|features] [--wait [--wait-timeout <duration>]] [--json]
                               [--bootstrap-servers <servers>] [<other options>]
            """,
        discussion: """
            Builds a request that follows the message contract (docs/contract/README.md), checks it as a \
            worker would, publishes it on the requests topic keyed by its taskId, and prints its requestId. \
            With --wait it then reads the results and errors topics until that request's outcome arrives \
            (putting a result split into parts back together) and prints it: the status, and per layer the \
            URL, the count, whether the selection is complete and the first ids, or the error.

            Examples, with a worker (query-worker run --allowed-hosts 127.0.0.1) and a sample-feature-server \
            running; SERVICES is the URL the server printed (http://127.0.0.1:PORT/arcgis/rest/services):

              query-worker query --bootstrap-servers 127.0.0.1:9092 \\
                --target $SERVICES/LA_County_Parcels/FeatureServer/0 \\
                --named-where government --extent -118.84,34.01,-118.77,34.05 --wait

              query-worker query --target $SERVICES/USA/MapServer --layers 0,2,3 \\
                --where "POP2000 > 1000000" --result count --wait --json

            Kafka settings come from the flags, else the worker's QUERY_WORKER_* variables \
            (QUERY_WORKER_BOOTSTRAP_SERVERS, QUERY_WORKER_TOPICS_REQUESTS, QUERY_WORKER_KAFKA_<PROPERTY>, ...) \
            and QUERY_WORKER_CONFIG_FILE, as for `query-worker run`.

            Exit status: 0 when the request was published (and, with --wait, its outcome is succeeded or \
            partial); 2 when the outcome is an error (rejected, failed, superseded, cancelled, expired); 1 for \
            a usage error, a Kafka error, or no outcome within --wait-timeout.
            """
    )

    @Option(help: "Kafka bootstrap servers, comma-separated (default: QUERY_WORKER_BOOTSTRAP_SERVERS, else localhost:9092).")
    var bootstrapServers: String?

    @Option(
        name: .customLong("target"),
        help: ArgumentHelp(
            "An ArcGIS layer (…/FeatureServer/0) or service (…/MapServer) URL to query. Repeatable.",
            valueName: "url"))
    var targets: [String] = []

    @Option(
        help: ArgumentHelp("Sublayers of the service targets, e.g. 0,2,3 (default: every layer).", valueName: "ids"),
        transform: LayerList.parse)
    var layers: LayerList?

    @Option(name: .customLong("where"), help: "An ArcGIS SQL where clause, e.g. \"UseType = 'Residential'\".")
    var whereClause: String?

    @Option(help: "A named query of the worker instead of --where (built in: government, residential, farm, taxRate10853, …).")
    var namedWhere: String?

    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "The spatial filter: xmin,ymin,xmax,ymax[,wkid] (wkid default 4326, so degrees).",
            valueName: "box"),
        transform: ExtentArgument.parse)
    var extent: ExtentArgument?

    @Option(help: "What each layer returns: ids (default), count, or features (GeoJSON).")
    var result: ResultKindArgument?

    @Option(help: "The supersession key: a newer request with the same taskId replaces this one (default: the requestId).")
    var taskId: String?

    @Option(help: "The request's id (default: a new UUID). With --wait, use a new one each time: an outcome for the same id from the last 30 s would be taken for this request's.")
    var requestId: String?

    @Option(help: "The request's deadline, in milliseconds after a worker receives it (default: the worker's).")
    var timeoutMs: Int?

    @Option(help: "The requests topic (default: QUERY_WORKER_TOPICS_REQUESTS, else feature-queries).")
    var topic: String?

    @Option(help: "The results topic --wait reads (default: QUERY_WORKER_TOPICS_RESULTS, else feature-query-results).")
    var resultsTopic: String?

    @Option(help: "The errors topic --wait reads (default: QUERY_WORKER_TOPICS_ERRORS, else feature-query-errors).")
    var errorsTopic: String?

    @Flag(help: "Wait for the outcome and print it.")
    var wait = false

    @Option(help: ArgumentHelp("How long --wait waits, e.g. 30s, 500ms, 2m (default: 60s).", valueName: "duration"))
    var waitTimeout: DurationArgument?

    @Flag(help: "Print JSON instead of text: the outcome as published (with --wait), else the request.")
    var json = false

    @Option(help: "Log level (logs go to standard error): trace, debug, info, notice, warning, error, critical.")
    var logLevel = LogLevelArgument(.warning)

    func validate() throws {
        guard !targets.isEmpty else {
            throw ValidationError("name at least one layer or service to query with --target URL")
        }
        if whereClause != nil, namedWhere != nil {
            throw ValidationError("--where and --named-where exclude each other: give one (or neither, for every feature)")
        }
        if let timeoutMs, timeoutMs < 1 { throw ValidationError("--timeout-ms must be at least 1") }
        if !wait, waitTimeout != nil {
            throw ValidationError("--wait-timeout applies only with --wait")
        }
        if layers != nil, !targets.contains(where: Self.isServiceURL) {
            throw ValidationError(
                "--layers picks sublayers of a service URL (…/MapServer or …/FeatureServer); every --target is a layer URL")
        }
    }

    func run() async throws {
        let logger = StandardErrorLogging.logger(label: "query-worker.query", level: logLevel.level)
        let kafka = try QueryKafkaSettings.load(
            bootstrapServers: bootstrapServers, requests: topic, results: resultsTopic, errors: errorsTopic)
        let draft = makeDraft()
        let (value, warnings) = try draft.checkedJSON(catalog: kafka.catalog)
        for warning in warnings { printError("warning: \(warning)") }
        let session = QuerySession(kafka: kafka, draft: draft, value: value, logger: logger)
        guard wait else {
            try await session.publish()
            printLine(json ? String(decoding: value, as: UTF8.self) : draft.requestId)
            return
        }
        let waitTimeout = self.waitTimeout ?? DurationArgument(seconds: 60)
        let completed = try await session.publishAndWait(timeout: waitTimeout.duration) {
            if !json { printLine(draft.requestId) }
        }
        guard let completed else {
            printError(
                "no outcome for request \(draft.requestId) within \(waitTimeout) on \(kafka.settings.topics.results) or "
                    + "\(kafka.settings.topics.errors): is a worker (query-worker run) consuming \(kafka.settings.topics.requests) "
                    + "at \(kafka.settings.bootstrapServers.joined(separator: ","))?")
            throw ExitCode(1)
        }
        printLine(json ? try OutcomeJSON.text(parts: completed.parts) : OutcomeText.block(completed.outcome))
        guard completed.outcome.isResult else { throw ExitCode(2) }
    }

    private func makeDraft() -> RequestDraft {
        let targets = self.targets.map { url in
            RequestDraft.Target(url: url, layers: Self.isServiceURL(url) ? layers?.ids : nil)
        }
        return RequestDraft(
            requestId: requestId ?? UUID().uuidString.lowercased(), taskId: taskId, timeoutMs: timeoutMs,
            targets: targets,
            query: RequestDraft.Query(
                where: whereClause, namedWhere: namedWhere, extent: extent.map(RequestDraft.extent),
                result: result?.rawValue))
    }

    /// A service URL ends in `/MapServer` or `/FeatureServer` (a trailing slash ignored); a layer URL has
    /// the layer id after it.
    static func isServiceURL(_ url: String) -> Bool {
        let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
        return trimmed.hasSuffix("/MapServer") || trimmed.hasSuffix("/FeatureServer")
    }
}
