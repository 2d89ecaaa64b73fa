import FeatureQuerySupport
import FeatureService
import Foundation
import ObjectStore
import ObjectStoreFixture
import StoredResults
import Testing

/// ``S3ResultStore`` end to end against moto: layers written as an engine writes them, read back by boto3, the
/// AWS CLI and curl, checked against the location the result would carry.
@Suite("S3 result store")
struct S3ResultStoreTests {
    /// About 9 MiB of GeoJSON in 5 MiB parts to moto checking every signature: the object boto3 and the AWS CLI
    /// read back is the one the location describes (size, SHA-256), a FeatureCollection of every feature.
    @Test func aLargeLayerIsOneCompleteFeatureCollection() async throws {
        let moto = try await SharedMoto.server()
        let count = 35_000
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let store = ResultStoreTestSupport.store(s3)
            let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
            try await ResultStoreTestSupport.appendFeatures(count, to: writer)
            let stored = try await writer.finish()
            let key = store.key(of: ResultStoreTestSupport.layer)
            #expect(stored.url == "s3://\(moto.bucket)/\(key)")
            #expect(key.hasPrefix("result-store-tests/\(store.taskId)/req-1/layer0-") && key.hasSuffix(".geojson"))
            #expect(stored.count == count && stored.kind == .features)
            #expect(stored.contentType == "application/geo+json" && stored.contentEncoding == nil)
            #expect(stored.bytes > StoredObjectWriter.minimumPartBytes, "several parts: \(stored.bytes) bytes")
            #expect(store.unfinishedCount == 0)
            let read = try await moto.readWithBoto3(key: key)
            #expect(read.count == stored.bytes)
            #expect(SHA256.hexDigest(read) == stored.sha256)
            let collection = try #require(try JSONSerialization.jsonObject(with: Data(read)) as? [String: Any])
            #expect(collection["type"] as? String == "FeatureCollection")
            let features = try #require(collection["features"] as? [[String: Any]])
            #expect(features.count == count)
            #expect(Set(features.compactMap { $0["id"] as? Int }) == Set(0..<count))
            let cli = try await moto.readWithAWSCLI(key: key)
            #expect(SHA256.hexDigest(cli) == stored.sha256)
            #expect(try await ResultStoreTestSupport.openUploads(moto, under: "result-store-tests/\(store.taskId)/") == 0)
        }
    }

    /// gzip and zstd: what is stored is what the location's SHA-256 says, and decodes (with the command-line
    /// tools) to NDJSON with one feature per line.
    @Test(arguments: [StoredObjectCompression.gzip, .zstd])
    func aCompressedLayerDecodesToItsFeatures(_ compression: StoredObjectCompression) async throws {
        let moto = try await SharedMoto.server()
        let count = 5_000
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let store = ResultStoreTestSupport.store(s3, format: .ndjson, compression: compression)
            let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
            try await ResultStoreTestSupport.appendFeatures(count, to: writer, page: 700)
            let stored = try await writer.finish()
            #expect(stored.contentEncoding == compression.rawValue && stored.contentType == "application/x-ndjson")
            #expect(stored.url.hasSuffix(".ndjson.\(compression.fileExtension)"))
            let read = try await moto.readWithBoto3(key: store.key(of: ResultStoreTestSupport.layer))
            #expect(read.count == stored.bytes && SHA256.hexDigest(read) == stored.sha256)
            let plain = try await ResultStoreTestSupport.decompress(read, with: compression == .gzip ? "gzip" : "zstd")
            let lines = plain.split(separator: UInt8(ascii: "\n"))
            #expect(lines.count == count)
            let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0])) as? [String: Any])
            #expect(first["type"] as? String == "Feature" && first["id"] as? Int == 0)
        }
    }

    /// The presigned `httpUrl` works for plain curl with no credentials (moto without signature checking: moto
    /// 5.2.5 answers 500 to unsigned requests when checking), and `expiresAt` is the signing time plus the lifetime.
    @Test func theLocationsHTTPURLServesTheObject() async throws {
        let moto = try await SharedMoto.openServer()
        let signedAt = Date(timeIntervalSince1970: (Date().timeIntervalSince1970).rounded(.down))
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let store = ResultStoreTestSupport.store(s3, urlLifetime: .seconds(600), now: { signedAt })
            let writer = try await store.open(ResultStoreTestSupport.layer, kind: .features)
            try await ResultStoreTestSupport.appendFeatures(2_000, to: writer)
            let stored = try await writer.finish()
            #expect(stored.expiresAt == Int64(signedAt.timeIntervalSince1970) * 1_000 + 600_000)
            #expect(stored.httpURL.hasPrefix(moto.endpoint + "/" + moto.bucket + "/result-store-tests/"))
            #expect(stored.httpURL.contains("X-Amz-Expires=600") && stored.httpURL.contains("X-Amz-Signature="))
            let fetched = try await moto.readWithCurl(url: stored.httpURL)
            #expect(fetched.count == stored.bytes && SHA256.hexDigest(fetched) == stored.sha256)
        }
    }

    /// Ids: one JSON array with `geojson`, one id per line with `ndjson`; a layer with nothing appended is still a
    /// valid object (an empty FeatureCollection, an empty array).
    @Test func idsAndEmptyLayersAreValidObjects() async throws {
        let moto = try await SharedMoto.server()
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let arrays = ResultStoreTestSupport.store(s3)
            let ids = try await arrays.open(ResultStoreTestSupport.layer, kind: .ids)
            try await ids.append([ArraySlice("1".utf8), ArraySlice("2".utf8)])
            try await ids.append([ArraySlice("3".utf8)])
            let storedIds = try await ids.finish()
            #expect(storedIds.kind == .ids && storedIds.count == 3 && storedIds.contentType == "application/json")
            #expect(try await moto.readWithBoto3(key: arrays.key(of: ResultStoreTestSupport.layer)) == Array("[1,2,3]\n".utf8))

            let lines = ResultStoreTestSupport.store(s3, format: .ndjson)
            let ndjson = try await lines.open(ResultStoreTestSupport.layer, kind: .ids)
            try await ndjson.append([ArraySlice(#""a-1""#.utf8), ArraySlice(#""b-2""#.utf8)])
            _ = try await ndjson.finish()
            #expect(try await moto.readWithBoto3(key: lines.key(of: ResultStoreTestSupport.layer)) == Array("\"a-1\"\n\"b-2\"\n".utf8))

            let emptyStore = ResultStoreTestSupport.store(s3)
            let empty = try await emptyStore.open(ProgressLayer(url: "http://h/ogc/collections/parcels", collection: "parcels"), kind: .features)
            let storedEmpty = try await empty.finish()
            #expect(storedEmpty.count == 0)
            let emptyKey = emptyStore.key(of: ProgressLayer(url: "http://h/ogc/collections/parcels", collection: "parcels"))
            #expect(emptyKey.contains("/parcels-"))
            let read = try await moto.readWithBoto3(key: emptyKey)
            let collection = try #require(try JSONSerialization.jsonObject(with: Data(read)) as? [String: Any])
            #expect(collection["type"] as? String == "FeatureCollection" && (collection["features"] as? [Any])?.isEmpty == true)
        }
    }

    /// A redelivered request (same task and request ids) writes the same key: the object is replaced, not
    /// duplicated; another layer of the same request, or a newer request, gets a key of its own.
    @Test func aRedeliveryOverwritesTheSameKey() async throws {
        let moto = try await SharedMoto.server()
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let first = ResultStoreTestSupport.store(s3)
            let again = ResultStoreTestSupport.store(s3, taskId: first.taskId)
            let newer = ResultStoreTestSupport.store(s3, requestId: "req-2", taskId: first.taskId)
            let layer = ResultStoreTestSupport.layer
            #expect(first.key(of: layer) == again.key(of: layer))
            #expect(first.key(of: layer) != newer.key(of: layer))
            #expect(first.key(of: layer) != first.key(of: ProgressLayer(url: layer.url.replacingOccurrences(of: "/0", with: "/1"), layerId: 1)))
            #expect(first.key(of: layer) != first.key(of: ProgressLayer(url: "http://other:8080/arcgis/rest/services/X/FeatureServer/0", layerId: 0)))
            for store in [first, again] {
                let writer = try await store.open(layer, kind: .features)
                try await ResultStoreTestSupport.appendFeatures(store === first ? 10 : 20, to: writer)
                _ = try await writer.finish()
            }
            let listed = try await moto.runAWSCLI([
                "s3api", "list-objects-v2", "--bucket", moto.bucket, "--prefix", "result-store-tests/\(first.taskId)/req-1/",
                "--query", "length(Contents)",
            ])
            #expect(listed.trimmingCharacters(in: .whitespacesAndNewlines) == "1")
            let read = try await moto.readWithBoto3(key: first.key(of: layer))
            let collection = try #require(try JSONSerialization.jsonObject(with: Data(read)) as? [String: Any])
            #expect((collection["features"] as? [Any])?.count == 20)
        }
    }
}
