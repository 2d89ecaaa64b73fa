import ArgumentParser
import FeatureQueryClient
import Foundation
import Logging
import QueryOutcomes
import QueryWorker

/// `query-worker query`: publish one request and, with `--wait`, print its outcome.
///
/// The first thing a user tries against a running worker, so the help says what it sends, what it
/// prints and what the exit status means, with examples that work against the sample feature server.
struct QueryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "query",
        abstract: "Publish a feature-query request; with --wait, print its outcome.",
        usage: """
            query-worker query --target <url> [--target <url> ...] [--layers <ids>] [--collection <id> ...]
                               [--where <clause> | --named-where <name>] [--extent <box> | --geometry <json>]
                               [--spatial-relationship <relation>] [--out-fields <fields>] [--[no-]return-geometry]
                               [--out-sr <wkid>] [--max-features <n>]
                               [--result ids|count|features|catalog|statistics|extent|distinct|related|attachments]
                               [--statistic <type:field[:name][:p]>]... [--group-by <fields>]...
                               [--order-by <field[:desc]>]... [--time <start/end>] [--object-ids <ids>]
                               [--relationship <name|id> [--related-where <clause>] [--related-out-fields <fields>]
                                [--related-order-by <field[:desc]>]...]
                               [--timeout <duration> | --timeout-ms <ms> | --deadline <date-time>]
                               [--credential <name>] [--wait [--wait-timeout <duration>] [--no-progress]]
                               [--delivery inline|store|auto] [--format geojson|ndjson] [--compression none|gzip|zstd]
                               [--location-only] [--json | --reassembled]
                               [--dry-run]
                               [--bootstrap-servers <servers>] [<other options>]
            """,
        discussion: """
            Builds a request that follows the message contract (docs/contract/README.md), checks it as a \
            worker would, publishes it on the requests topic keyed by its taskId, and prints its requestId. \
            With --wait it then reads the results and errors topics until that request's outcome arrives \
            (putting a result split into parts back together) and prints it: the status, and per layer the \
            URL, the count, whether the selection is complete (and why not), where an OGC filter ran, the \
            first ids, a catalog's entries, statistics and distinct rows as a table, an extent, and with \
            --result features the features as GeoJSON; or the error. While it waits, the worker's progress events \
            (pages and features so far, the expected total, the rate and the time left) show on standard error: \
            a bar on a terminal, a line per event otherwise (--no-progress: none). --dry-run prints the checked \
            request and publishes nothing.

            Targets: an ArcGIS layer or service URL, or ogc: followed by an OGC API Features landing page URL; \
            each ogc: target queries each --collection (--result catalog without --collection lists the \
            landing page's collections). To cancel a task's running request: query-worker cancel --task-id ID.

            Examples, with a worker (query-worker run --allowed-hosts 127.0.0.1) and a sample-feature-server \
            running; SERVICES is the URL the server printed (http://127.0.0.1:PORT/arcgis/rest/services):

              query-worker query --bootstrap-servers 127.0.0.1:9092 \\
                --target $SERVICES/LA_County_Parcels/FeatureServer/0 \\
                --named-where government --extent -118.84,34.01,-118.77,34.05 --wait

              query-worker query --target $SERVICES/USA/MapServer --layers 0,2,3 \\
                --where "POP2000 > 1000000" --result count --wait --reassembled

              query-worker query --target $SERVICES/USA/MapServer --result catalog --wait

              query-worker query --target ogc:https://demo.ldproxy.net/daraa \\
                --collection CulturePnt --where "F_CODE = 'AL012'" \\
                --max-features 1000 --result features --return-geometry --wait

              query-worker query --target $SERVICES/LA_County_Parcels/FeatureServer/0 --result statistics \\
                --statistic count:APN:parcels --statistic avg:Roll_LandValue \\
                --statistic percentileCont:Roll_LandValue:median:0.5 --group-by UseType \\
                --order-by parcels:desc --wait

            Large results (a worker with an object store, contract 1.3): --delivery store (or auto, above the \
            worker's threshold) puts a layer's features or ids in the store, with --format and --compression; the \
            result then carries its location. --wait fetches it through its presigned URL, checks its size and \
            SHA-256, decompresses it and prints it as an inline layer; --location-only prints the location instead \
            (--json and --reassembled print the location as published, fetching nothing).

            Output: text for people by default; --json prints JSON as published: the request without --wait, \
            and with --wait each outcome message (each part of a split result) on its own line; --reassembled \
            prints the outcome as one JSON object, a split result's parts put back together.

            Kafka settings come from the flags, else the worker's QUERY_WORKER_* variables \
            (QUERY_WORKER_BOOTSTRAP_SERVERS, QUERY_WORKER_TOPICS_REQUESTS, QUERY_WORKER_KAFKA_<PROPERTY>, ...) \
            and QUERY_WORKER_CONFIG_FILE, as for `query-worker run`.

            Exit status: 0 when the request was published (and, with --wait, its outcome is succeeded or \
            partial); 2 when the outcome is an error (rejected, failed, superseded, cancelled, expired); 1 for \
            a usage error, a Kafka error, or no outcome within --wait-timeout.
            """
    )

    @OptionGroup(title: "Request")
    var request: RequestOptions

    @OptionGroup(title: "Feature table")
    var table: TableOptions

    @OptionGroup(title: "Related records")
    var related: RelatedOptions

    @OptionGroup(title: "Stored results")
    var deliveryOptions: DeliveryOptions

    @OptionGroup(title: "Kafka")
    var kafkaOptions: KafkaOptions

    @Flag(help: "Wait for the outcome and print it.")
    var wait = false

    @Option(help: ArgumentHelp("How long --wait waits, e.g. 30s, 500ms, 2m (default: 60s).", valueName: "duration"))
    var waitTimeout: DurationArgument?

    @Flag(
        inversion: .prefixedNo,
        help: "With --wait, ask the worker for progress events and show them on standard error: a bar on a terminal, a line per event otherwise.")
    var progress = true

    @Flag(help: "Print JSON as published: the request, or with --wait each outcome message on its own line.")
    var json = false

    @Flag(help: "With --wait, print the outcome as one JSON object (a split result's parts put back together).")
    var reassembled = false

    @Flag(help: "Check the request as a worker would and print its JSON; publish nothing (no Kafka needed).")
    var dryRun = false

    @Option(help: "Log level (logs go to standard error): trace, debug, info, notice, warning, error, critical.")
    var logLevel = LogLevelArgument(.warning)

    func validate() throws {
        if !wait, waitTimeout != nil {
            throw ValidationError("--wait-timeout applies only with --wait")
        }
        if reassembled, !wait { throw ValidationError("--reassembled applies only with --wait") }
        if reassembled, json { throw ValidationError("--json and --reassembled exclude each other: pick one output") }
        if dryRun, wait { throw ValidationError("--dry-run publishes nothing, so there is nothing to --wait for") }
        if deliveryOptions.locationOnly, !wait { throw ValidationError("--location-only applies only with --wait") }
    }

    func run() async throws {
        let logger = StandardErrorLogging.logger(label: "query-worker.query", level: logLevel.level)
        let kafka = try kafkaOptions.settings()
        var job = try request.job(table: table, related: related)
        job.progress = wait && progress
        deliveryOptions.apply(to: &job)
        let value = try CheckedJob.value(of: job, catalog: kafka.catalog)
        if dryRun {
            printLine(String(decoding: value, as: UTF8.self))
            return
        }
        let session = QueryClientSession(kafka: kafka, logger: logger)
        guard wait else {
            try await session.publish(job)
            printLine(json ? String(decoding: value, as: UTF8.self) : job.requestId)
            return
        }
        let waitTimeout = self.waitTimeout ?? DurationArgument(seconds: 60)
        if !json, !reassembled { printLine(job.requestId) }
        let display = ProgressDisplay(interval: .milliseconds(500))
        let outcome = try await session.submit(job, timeout: waitTimeout.duration) { event in
            display.update(ProgressMeter.Reading(features: event.features, expected: event.expected, pages: event.pages, elapsed: event.elapsed))
        }
        display.finish()
        guard let outcome else {
            printError(
                "no outcome for request \(job.requestId) within \(waitTimeout) on \(kafka.settings.topics.results) or "
                    + "\(kafka.settings.topics.errors): is a worker (query-worker run) consuming \(kafka.settings.topics.requests) "
                    + "at \(kafka.settings.bootstrapServers.joined(separator: ","))?")
            throw ExitCode(1)
        }
        try await printOutcome(outcome, job: job, logger: logger)
        guard outcome.status == .succeeded || outcome.status == .partial else { throw ExitCode(2) }
    }

    /// Prints an outcome as the flags ask. `--json` and `--reassembled` print the JSON as published (a stored
    /// layer's `location` included); the text fetches stored layers (checked against their SHA-256) and prints
    /// them as inline ones, or with `--location-only` prints where they are.
    private func printOutcome(_ outcome: QueryOutcome, job: QueryJob, logger: Logger) async throws {
        let parts = outcome.messages.map { Array($0) }
        if json {
            for part in parts { printLine(String(decoding: part, as: UTF8.self)) }
        } else if reassembled {
            printLine(try OutcomeJSON.text(parts: parts))
        } else {
            printLine(try await Self.text(parts: parts, query: job.query, locationOnly: deliveryOptions.locationOnly, logger: logger))
        }
    }

    /// The text block of an outcome's messages, stored layers fetched unless `locationOnly`.
    static func text(parts: [[UInt8]], query: Query, locationOnly: Bool, logger: Logger) async throws -> String {
        var decoded = try Outcome(parts: parts)
        var features = query.result == .features ? try OutcomeJSON.featureCollections(parts: parts) : []
        if !locationOnly {
            let reader = StoredResultReader(logger: logger)
            let fetched: Result<[(url: String, geoJSON: String)], any Error>
            do {
                fetched = .success(try await StoredLayerFetch.resolve(&decoded, parts: parts, reader: reader))
            } catch {
                fetched = .failure(error)
            }
            await reader.shutdown()
            features += try fetched.get()
        }
        return OutcomeText.block(decoded, features: features, columns: TableColumns(query: query), locationOnly: locationOnly)
    }
}

/// Where `query` and `cancel` publish and read: each flag overrides the worker's own setting.
struct KafkaOptions: ParsableArguments {
    @Option(help: "Kafka bootstrap servers, comma-separated (default: QUERY_WORKER_BOOTSTRAP_SERVERS, else localhost:9092).")
    var bootstrapServers: String?

    @Option(help: "The requests topic (default: QUERY_WORKER_TOPICS_REQUESTS, else feature-queries).")
    var topic: String?

    @Option(help: "The results topic --wait reads (default: QUERY_WORKER_TOPICS_RESULTS, else feature-query-results).")
    var resultsTopic: String?

    @Option(help: "The errors topic --wait reads (default: QUERY_WORKER_TOPICS_ERRORS, else feature-query-errors).")
    var errorsTopic: String?

    func settings() throws -> QueryKafkaSettings {
        try QueryKafkaSettings.load(
            bootstrapServers: bootstrapServers, requests: topic, results: resultsTopic, errors: errorsTopic)
    }
}
