import CurlHTTP
import FeatureQueryClient
import FeatureQuerySupport
import Foundation
import ObjectStore
import ObjectStoreFixture
import StoredResults
import Testing

/// The client fetching what the worker's writer stored in moto, through the presigned URL over libcurl: exactly the
/// features (or ids) written, in every format and compression, over several ranges; and every way a fetch can go
/// wrong as its typed error.
@Suite("Stored results fetched from moto")
struct StoredResultFetchTests {
    /// Small ranges, so even small objects are read in several.
    static func reader(rangeBytes: Int = 4_096) -> StoredResultReader {
        StoredResultReader(configuration: .init(rangeBytes: rangeBytes, attempts: 2, requestTimeout: .seconds(30)), logger: MotoStore.logger)
    }

    static func collect(_ reader: StoredResultReader, _ location: StoredResultLocation) async throws -> [String] {
        var items: [String] = []
        for try await item in reader.items(of: location) { items.append(String(decoding: item, as: UTF8.self)) }
        return items
    }

    static let cases: [(StoredObjectFormat, StoredObjectCompression?)] = [
        (.geojson, nil), (.geojson, .gzip), (.geojson, .zstd), (.ndjson, nil), (.ndjson, .gzip), (.ndjson, .zstd),
    ]

    @Test(arguments: 0..<cases.count)
    func theFeaturesWrittenAreTheFeaturesRead(index: Int) async throws {
        let (format, compression) = Self.cases[index]
        let moto = try await MotoStore.server()
        let features = (0..<2_000).map(MotoStore.feature)
        let (_, location) = try await MotoStore.store(features, format: format, compression: compression, in: moto)
        #expect(location.contentEncoding == compression?.contentEncoding)
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let read = try await Self.collect(reader, location)
        #expect(read == features.map { String(decoding: $0, as: UTF8.self) })
        // The convenience puts them where an inline layer has them.
        let layer = try await reader.resolving(try Self.layer(location))
        let collection = try #require(layer.featureCollection)
        let document = try #require(try JSONSerialization.jsonObject(with: collection) as? [String: Any])
        #expect((document["features"] as? [[String: Any]])?.compactMap { $0["id"] as? Int } == Array(0..<2_000))
    }

    /// The store serves a compressed object with its `Content-Encoding`: an HTTP client that decodes it (CurlHTTP's
    /// default) would hand over other bytes than the checksum is of, and could not decode a range. The reader's does
    /// not.
    @Test func theStoreSendsTheContentEncodingTheReaderKeeps() async throws {
        let moto = try await MotoStore.server()
        let (_, location) = try await MotoStore.store((0..<200).map(MotoStore.feature), format: .geojson, compression: .gzip, in: moto)
        let decoding = try HTTPClient(logger: MotoStore.logger)
        let response = try await decoding.execute(HTTPRequest(url: location.httpURL))
        await decoding.shutdown()
        #expect(response.status == 200)
        #expect(response.headers["Content-Encoding"] == "gzip")
        #expect(response.body.count != location.bytes, "a decoding client gets the decoded bytes")
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        #expect(try await Self.collect(reader, location).count == 200)
    }

    /// A multipart object (two 5 MiB parts and a shorter one) read in 1 MiB ranges.
    @Test func aMultipartObjectIsReadInRanges() async throws {
        let moto = try await MotoStore.server()
        let features = (0..<90_000).map(MotoStore.feature)
        let (_, location) = try await MotoStore.store(features, format: .ndjson, compression: nil, in: moto)
        #expect(location.bytes > 10 << 20)
        let reader = Self.reader(rangeBytes: 1 << 20)
        defer { Task { await reader.shutdown() } }
        var count = 0
        var last = ""
        for try await item in reader.items(of: location) {
            count += 1
            last = String(decoding: item, as: UTF8.self)
        }
        #expect(count == 90_000)
        #expect(last == String(decoding: MotoStore.feature(89_999), as: UTF8.self))
    }

    @Test(arguments: [StoredObjectFormat.geojson, .ndjson])
    func idsBecomeObjectIdsOrFeatureIds(format: StoredObjectFormat) async throws {
        let moto = try await MotoStore.server()
        let ids = (1...500).map { Array(String($0 * 3).utf8) }
        let (_, location) = try await MotoStore.store(ids, format: format, compression: .zstd, ids: true, in: moto)
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let arcgis = try await reader.resolving(try Self.layer(location))
        #expect(arcgis.objectIds == (1...500).map { Int64($0 * 3) })
        var ogcLayer = try Self.layer(location)
        ogcLayer.collection = "parcels"
        let ogc = try await reader.resolving(ogcLayer)
        #expect(ogc.featureIds == (1...500).map { Query.FeatureID.integer(Int64($0 * 3)) })
    }

    @Test func aDownloadIsTheDecompressedObject() async throws {
        let moto = try await MotoStore.server()
        let features = (0..<300).map(MotoStore.feature)
        let (key, location) = try await MotoStore.store(features, format: .ndjson, compression: .gzip, in: moto)
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("download-\(UUID().uuidString).ndjson")
        defer { try? FileManager.default.removeItem(at: file) }
        try await reader.download(location, to: file)
        let written = try Data(contentsOf: file)
        #expect(written == Data(features.map { $0 + [UInt8(ascii: "\n")] }.joined()))
        // The stored bytes are the compressed ones boto3 reads, with the location's digest.
        let stored = try await moto.readWithBoto3(key: key)
        #expect(SHA256.hexDigest(stored) == location.sha256 && stored.count == location.bytes)
    }

    @Test func anObjectReplacedAfterPresigningFailsItsChecksum() async throws {
        let moto = try await MotoStore.server()
        let features = (0..<400).map(MotoStore.feature)
        let (key, location) = try await MotoStore.store(features, format: .geojson, compression: nil, in: moto)
        // The same size, other bytes: only the digest can tell.
        var tampered = try await moto.readWithBoto3(key: key)
        let index = try #require(tampered.firstIndex(of: UInt8(ascii: "7")))
        tampered[index] = UInt8(ascii: "8")
        try await moto.replaceObject(key, with: tampered, contentType: location.contentType, contentEncoding: nil)
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let error = await #expect(throws: FeatureQueryError.self) { _ = try await Self.collect(reader, location) }
        #expect(error?.code == .storedResultChecksumMismatch)
        #expect(error?.isRetryable == true)
        // Nothing of it is handed out by the convenience, nor left as a file.
        let resolved = await #expect(throws: FeatureQueryError.self) { _ = try await reader.resolving(try Self.layer(location)) }
        #expect(resolved?.code == .storedResultChecksumMismatch)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tampered-\(UUID().uuidString).geojson")
        await #expect(throws: FeatureQueryError.self) { try await reader.download(location, to: file) }
        #expect(!FileManager.default.fileExists(atPath: file.path))
        // Another size is caught at the first range, from the store's Content-Range.
        try await moto.replaceObject(key, with: tampered + Array(" ".utf8), contentType: location.contentType, contentEncoding: nil)
        let longer = await #expect(throws: FeatureQueryError.self) { _ = try await Self.collect(reader, location) }
        #expect(longer?.code == .storedResultSizeMismatch)
    }

    @Test func aWrongChecksumInTheLocationFails() async throws {
        let moto = try await MotoStore.server()
        var (_, location) = try await MotoStore.store((0..<50).map(MotoStore.feature), format: .ndjson, compression: .zstd, in: moto)
        location.sha256 = SHA256.hexDigest(Array("something else".utf8))
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let error = await #expect(throws: FeatureQueryError.self) { _ = try await Self.collect(reader, location) }
        #expect(error?.code == .storedResultChecksumMismatch)
    }

    /// moto refuses a GET of a private object without a signature (403): before `expiresAt` that is a refusal an
    /// operator must look at; after it, an expired URL the caller can cure by submitting again. (moto never checks a
    /// presigned URL's expiry itself; AWS answers 403 "Request has expired", which reads the same.)
    @Test func aRefusedURLIsForbiddenOrExpired() async throws {
        let moto = try await MotoStore.server()
        var (_, location) = try await MotoStore.store((0..<10).map(MotoStore.feature), format: .ndjson, compression: nil, in: moto)
        location.httpURL = String(location.httpURL.prefix { $0 != "?" })
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let forbidden = await #expect(throws: FeatureQueryError.self) { _ = try await Self.collect(reader, location) }
        #expect(forbidden?.code == .storedResultForbidden)
        #expect(forbidden?.isRetryable == false)
        #expect(forbidden?.message.contains("X-Amz-Signature") == false)
        location.expiresAt = Date(timeIntervalSinceNow: -60)
        let expired = await #expect(throws: FeatureQueryError.self) { _ = try await Self.collect(reader, location) }
        #expect(expired?.code == .storedResultExpired)
        #expect(expired?.isRetryable == true)
    }

    @Test func aDeletedObjectIsMissing() async throws {
        let moto = try await MotoStore.server()
        let key = MotoStore.uniqueKey("missing")
        let url = try await moto.withS3Client { s3 in try await s3.presignedGetURL(key: key, expires: .seconds(60)) }
        let location = StoredResultLocation(
            url: "s3://results/\(key)", httpURL: url, expiresAt: Date(timeIntervalSinceNow: 60), bytes: 10,
            sha256: SHA256.hexDigest([]), contentType: "application/x-ndjson", features: 1)
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let error = await #expect(throws: FeatureQueryError.self) { _ = try await Self.collect(reader, location) }
        #expect(error?.code == .storedResultMissing)
    }

    @Test func aStoreThatIsDownIsUnavailableAndRetryable() async throws {
        let location = StoredResultLocation(
            url: "s3://results/k", httpURL: "http://127.0.0.1:9/results/k?X-Amz-Signature=abc", expiresAt: Date(timeIntervalSinceNow: 60),
            bytes: 10, sha256: SHA256.hexDigest([]), contentType: "application/x-ndjson", features: 1)
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let error = await #expect(throws: FeatureQueryError.self) { _ = try await Self.collect(reader, location) }
        #expect(error?.code == .storedResultUnavailable)
        #expect(error?.isRetryable == true)
        #expect(error?.message.contains("abc") == false, "the presigned URL's signature is never in a message")
    }

    @Test func aLayerLargerThanAllowedInMemoryIsRefused() async throws {
        let moto = try await MotoStore.server()
        let (_, location) = try await MotoStore.store((0..<100).map(MotoStore.feature), format: .ndjson, compression: nil, in: moto)
        let reader = Self.reader()
        defer { Task { await reader.shutdown() } }
        let error = await #expect(throws: FeatureQueryError.self) { _ = try await reader.resolving(try Self.layer(location), maxBytes: 1_000) }
        #expect(error?.code == .storedResultTooLarge)
    }

    /// A layer of an outcome whose selection is at `location`.
    static func layer(_ location: StoredResultLocation) throws -> QueryOutcome.LayerResult {
        try #require(try QueryOutcome(messages: [Data(OutcomeFixtures.result(location: location).utf8)]).layers.first)
    }
}
