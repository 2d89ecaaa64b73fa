import ArgumentParser
import CurlHTTP
import FeatureQuerySupport
import Foundation
import Logging
import ObjectStore
import StoredResults

/// `export --store`: the exported features written to an S3-compatible store as the worker writes a large result
/// (framed, compressed, cut into multipart parts, hashed, size-checked), and the contract's `location` printed.
///
/// Written through StoredObjectWriter and StoredObjectUpload directly: the worker's `ResultStore` is not part of
/// this command (it runs the engines in process, with no request to name the object by).
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

    /// Uploads `features` (each one GeoJSON Feature) and returns the location's JSON, one line.
    func upload(_ features: [ArraySlice<UInt8>], logger: Logger) async throws -> String {
        guard let store else { throw CommandFailure("no --store") }
        let location: S3Location
        let endpoint: S3Endpoint
        let environment = ProcessInfo.processInfo.environment
        let region = storeRegion ?? environment["AWS_REGION"] ?? environment["AWS_DEFAULT_REGION"] ?? "us-east-1"
        do throws(ObjectStoreError) {
            location = try S3Location(parsing: store)
            endpoint = try storeEndpoint.map { url throws(ObjectStoreError) in try S3Endpoint(url: url) } ?? .aws(region: region)
        } catch {
            throw ValidationError("--store: \(error.message)")
        }
        let http = try HTTPClient(logger: logger)
        do {
            let json = try await upload(features, to: location, endpoint: endpoint, region: region, http: http)
            await http.shutdown()
            return json
        } catch {
            await http.shutdown()
            throw CommandFailure("the features could not be stored at \(store): \(error)")
        }
    }

    private func upload(
        _ features: [ArraySlice<UInt8>], to location: S3Location, endpoint: S3Endpoint, region: String, http: HTTPClient
    ) async throws -> String {
        let credentials = try AWSCredentialsChain.provider(stsClient: STSClient(http: http))
        let s3 = try S3Client(
            http: http, configuration: S3Client.Configuration(bucket: location.bucket, region: region, endpoint: endpoint),
            credentials: credentials)
        let format = StoredObjectFormat(rawValue: (format ?? .geojson).rawValue) ?? .geojson
        let compression = StoredObjectCompression(rawValue: (compression ?? CompressionArgument.none).rawValue)
        // One export per key: `export/<uuid>/0.<format>[.gz|.zst]` under the prefix (no request to name it by).
        let name = "0.\(format.fileExtension)" + (compression.map { ".\($0.fileExtension)" } ?? "")
        let key = location.key("export/\(UUID().uuidString.lowercased())/\(name)")
        guard let writer = StoredObjectWriter(format: format, compression: compression) else {
            throw CommandFailure("no digest or compression context could be made")
        }
        let upload = StoredObjectUpload(store: s3, key: key, writer: writer)
        for start in stride(from: 0, to: features.count, by: 1_000) {
            try await upload.append(Array(features[start..<min(start + 1_000, features.count)]))
        }
        let stored = try await upload.finish()
        let now = Date()
        let url = try await s3.presignedGetURL(key: key, expires: Self.urlLifetime, now: now)
        let expiresAt = Int64((now.timeIntervalSince1970 + Double(Self.urlLifetime.components.seconds)) * 1000)
        return Self.locationJSON(
            url: "s3://\(location.bucket)/\(key)", httpURL: url, expiresAt: expiresAt, stored: stored)
    }

    /// The contract's `location` object (as ResultMessage+Location writes it).
    static func locationJSON(url: String, httpURL: String, expiresAt: Int64, stored: StoredObjectUpload.Stored) -> String {
        var writer = JSONWriter(capacity: 512)
        writer.raw("{")
        writer.key("url")
        writer.string(url)
        writer.comma()
        writer.key("httpUrl")
        writer.string(httpURL)
        writer.comma()
        writer.key("expiresAt")
        writer.timestamp(milliseconds: expiresAt)
        writer.comma()
        writer.key("bytes")
        writer.integer(stored.summary.bytes)
        writer.comma()
        writer.key("sha256")
        writer.string(stored.summary.sha256)
        writer.comma()
        writer.key("contentType")
        writer.string(stored.contentType)
        if let encoding = stored.contentEncoding {
            writer.comma()
            writer.key("contentEncoding")
            writer.string(encoding)
        }
        writer.comma()
        writer.key("features")
        writer.integer(stored.summary.features)
        writer.raw("}")
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
