import ArgumentParser
import FeatureQueryClient

/// `query`'s flags for where a large selection goes (contract 1.3): the request's `delivery`, `format` and
/// `compression`, and whether `--wait` fetches a stored layer or prints where it is.
struct DeliveryOptions: ParsableArguments {
    @Option(help: "Where the features or ids go: inline (in the result), store (the worker's object store), auto (the store above the worker's threshold; default).")
    var delivery: DeliveryArgument?

    @Option(help: "How a stored selection is laid out: geojson (one FeatureCollection; default) or ndjson (one feature per line).")
    var format: FormatArgument?

    @Option(help: "How a stored selection is compressed: none (default), gzip, zstd.")
    var compression: CompressionArgument?

    @Flag(help: "With --wait, print a stored layer's location (s3 URL, presigned URL, size, SHA-256) instead of fetching it.")
    var locationOnly = false

    func validate() throws {
        if delivery == .inline, format != nil || compression != nil {
            throw ValidationError("--format and --compression apply to a stored result; with --delivery inline leave them out")
        }
    }

    /// Sets the job's fields from the flags; unset flags keep the contract's defaults (left out of the message).
    func apply(to job: inout QueryJob) {
        if let delivery { job.delivery = delivery.value }
        if let format { job.format = format.value }
        if let compression { job.compression = compression.value }
    }
}

enum DeliveryArgument: String, ExpressibleByArgument, CaseIterable {
    case inline, store, auto
    var value: QueryJob.Delivery { QueryJob.Delivery(rawValue: rawValue) ?? .auto }
}

enum FormatArgument: String, ExpressibleByArgument, CaseIterable {
    case geojson, ndjson
    var value: QueryJob.StoredFormat { QueryJob.StoredFormat(rawValue: rawValue) ?? .geojson }
}

enum CompressionArgument: String, ExpressibleByArgument, CaseIterable {
    case none, gzip, zstd
    var value: QueryJob.StoredCompression { QueryJob.StoredCompression(rawValue: rawValue) ?? .none }
}
