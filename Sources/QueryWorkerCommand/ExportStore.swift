import ArgumentParser
import CurlHTTP
import FeatureQuerySupport
import FeatureService
import Foundation
import ObjectStore
import StoredResults

/// `export --store`: the exported layer written to an S3-compatible store as the worker writes a large result,
/// and the contract's `location` printed.
struct ExportStoreOptions: ParsableArguments {
    @Option(help: ArgumentHelp("Write the features to this bucket and prefix (s3://bucket/prefix) and print their location.", valueName: "url"))
    var store: String?

    @Option(help: ArgumentHelp("The store's endpoint for non-AWS stores (MinIO, Ceph, moto), path-style.", valueName: "url"))
    var storeEndpoint: String?

    @Option(help: ArgumentHelp("The store's region (default: AWS_REGION, else us-east-1).", valueName: "region"))
    var storeRegion: String?

    @Option(help: "With --store: geojson (one FeatureCollection; default) or ndjson (one feature per line).")
    var format: FormatArgument?

    @Option(help: "With --store: none (default), gzip or zstd.")
    var compression: CompressionArgument?

    /// How long the printed presigned URL works.
    static let urlLifetime: Duration = .seconds(3600)

    func validate() throws {
        guard store == nil else { return }
        if storeEndpoint != nil || storeRegion != nil || format != nil || compression != nil {
            throw ValidationError("--store-endpoint, --store-region, --format and --compression go with --store")
        }
    }

    /// The store the engine streams the export into (`nil` without `--store`): the worker's `S3ResultStore`, so
    /// the layer is written as its pages arrive (framed, compressed, cut into multipart parts, hashed, its size
    /// checked) with a memory bound of a few parts, whatever the layer's size. The object is named
    /// `<prefix>/export/<uuid>/…`: there is no request to name it by.
    func resultStore(http: HTTPClient) throws -> S3ResultStore? {
        guard let store else { return nil }
        let environment = ProcessInfo.processInfo.environment
        let region = storeRegion ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1"
        let location: S3Location
        let endpoint: S3Endpoint
        do throws(ObjectStoreError) {
            location = try S3Location(parsing: store)
            endpoint = try storeEndpoint.map { url throws(ObjectStoreError) in try S3Endpoint(url: url) } ?? .aws(region: region)
        } catch {
            throw ValidationError("--store: \(error.message)")
        }
        let credentials: any AWSCredentialsProvider
        let client: S3Client
        do {
            credentials = try AWSCredentialsChain.provider(stsClient: STSClient(http: http))
            client = try S3Client(
                http: http, configuration: S3Client.Configuration(bucket: location.bucket, region: region, endpoint: endpoint),
                credentials: credentials)
        } catch {
            throw CommandFailure("--store \(store): \(error)")
        }
        return S3ResultStore(
            configuration: S3ResultStore.Configuration(client: client, location: location, urlLifetime: Self.urlLifetime),
            delivery: .always, taskId: "export", requestId: UUID().uuidString.lowercased(),
            format: StoredObjectFormat(rawValue: (format ?? .geojson).rawValue) ?? .geojson,
            compression: StoredObjectCompression(rawValue: (compression ?? CompressionArgument.none).rawValue))
    }

    /// The contract's `location` object of the stored layer, one line (as a result carries it).
    static func locationJSON(_ stored: StoredSelection) -> String {
        var writer = JSONWriter(capacity: 512)
        writer.storedLocation(stored)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
