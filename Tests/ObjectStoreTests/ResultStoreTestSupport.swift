import ChildProcessFixture
import FeatureQuerySupport
import FeatureService
import Foundation
import ObjectStore
import ObjectStoreFixture
import StoredResults

/// Stores made for one test: a unique task id, so tests sharing moto never write the same keys.
enum ResultStoreTestSupport {
    static let prefix = "result-store-tests/"

    /// A store over `s3` for a fresh task, delivering every layer to the store.
    static func store(
        _ s3: S3Client, format: StoredObjectFormat = .geojson, compression: StoredObjectCompression? = nil,
        partBytes: Int = StoredObjectWriter.minimumPartBytes, urlLifetime: Duration = .seconds(900), requestId: String = "req-1",
        taskId: String = "task-\(UUID().uuidString.prefix(8).lowercased())", now: @escaping @Sendable () -> Date = { Date() }
    ) -> S3ResultStore {
        S3ResultStore(
            configuration: S3ResultStore.Configuration(
                client: s3, location: S3Location(bucket: s3.configuration.bucket, prefix: prefix), partBytes: partBytes,
                urlLifetime: urlLifetime),
            delivery: .always, taskId: taskId, requestId: requestId, format: format, compression: compression, now: now)
    }

    /// A parcel layer of the sample server's shape.
    static let layer = ProgressLayer(url: "http://127.0.0.1:8080/arcgis/rest/services/LA/FeatureServer/0", layerId: 0)

    /// Feature `id` as an engine hands it over: one GeoJSON Feature with a polygon and a few properties (about
    /// 330 bytes), different per id so parts differ.
    static func feature(_ id: Int) -> ArraySlice<UInt8> {
        let x = -118.0 - Double(id % 9_973) / 10_000
        let y = 34.0 + Double(id % 9_967) / 10_000
        let ring = "[[\(x),\(y)],[\(x + 0.0005),\(y)],[\(x + 0.0005),\(y + 0.0005)],[\(x),\(y + 0.0005)],[\(x),\(y)]]"
        return ArraySlice(
            #"{"type":"Feature","id":\#(id),"geometry":{"type":"Polygon","coordinates":[\#(ring)]},"properties":{"OBJECTID":\#(id),"APN":"\#(5_000_000 + id)","USECODE":"0100","Shape_Area":\#(Double(id % 997) * 1.5)}}"#.utf8)
    }

    /// Appends features `0..<count` in pages of `page`, as an engine's page loop does.
    static func appendFeatures(_ count: Int, to writer: any StoredLayerWriter, page: Int = 1_000) async throws {
        for start in stride(from: 0, to: count, by: page) {
            try await writer.append((start..<min(start + page, count)).map(feature))
        }
    }

    /// `bytes` decompressed by the command-line tool (`gzip -dc`, `zstd -dc`): an independent decoder.
    static func decompress(_ bytes: [UInt8], with tool: String) async throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stored-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw ToolFailure(message: "cannot write \(path)") }
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Waited for asynchronously: a blocking read would hold one of the two cooperative threads meanwhile.
        return try await ChildProcesses.output(of: ["/usr/bin/env", tool, "-dc", path])
    }

    /// The open multipart uploads under the store's prefix, as the AWS CLI lists them (an independent client).
    static func openUploads(_ moto: MotoServer, under prefix: String = prefix) async throws -> Int {
        let output = try await moto.runAWSCLI([
            "s3api", "list-multipart-uploads", "--bucket", moto.bucket, "--prefix", prefix, "--output", "json",
        ])
        guard let data = output.data(using: .utf8), !output.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty,
            let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        else { return 0 }
        return (object["Uploads"] as? [Any])?.count ?? 0
    }

    struct ToolFailure: Error, CustomStringConvertible {
        var message: String
        var description: String { message }
    }
}
