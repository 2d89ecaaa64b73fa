import FeatureQuerySupport
import Foundation
import StoredResults
import Testing

@testable import FeatureQueryClient

/// A stored object read back without I/O, as the worker's own writer frames it: every feature (or id) comes out
/// once, in order, however the bytes are cut; a wrong digest, size or count is the right typed error.
@Suite struct StoredObjectPipelineTests {
    static func feature(_ id: Int) -> [UInt8] {
        Array(#"{"type":"Feature","id":\#(id),"geometry":{"type":"Point","coordinates":[-118.5,34.1]},"properties":{"Name":"a, \"quoted\" [name] {\#(id)}"}}"#.utf8)
    }

    /// The object StoredObjectWriter makes of `items`, and a location describing it.
    static func object(
        _ items: [[UInt8]], format: StoredObjectFormat, compression: StoredObjectCompression?, ids: Bool = false
    ) throws -> (bytes: [UInt8], location: StoredResultLocation) {
        guard var writer = StoredObjectWriter(format: format, compression: compression, partBytes: 1 << 30, allowingSmallParts: true) else {
            throw StoredResultLocationError()
        }
        for item in items { _ = try writer.append(feature: item) }
        guard case .single(let bytes, let summary) = try writer.finish() else { throw StoredResultLocationError() }
        let location = StoredResultLocation(
            url: "s3://results/test/0.\(format.rawValue)", httpURL: "http://127.0.0.1:1/unused", expiresAt: Date(timeIntervalSinceNow: 600),
            bytes: summary.bytes, sha256: summary.sha256, contentType: format.contentType, contentEncoding: compression?.contentEncoding,
            features: ids ? nil : summary.features, ids: ids ? summary.features : nil)
        return (bytes, location)
    }

    struct StoredResultLocationError: Error {}

    /// Runs the pipeline over `bytes` cut every `cut` bytes; the items as text.
    static func read(_ bytes: [UInt8], _ location: StoredResultLocation, cut: Int) throws(FeatureQueryError) -> [String] {
        var pipeline = try StoredObjectPipeline(location)
        var items: [Data] = []
        var offset = 0
        while offset < bytes.count {
            let end = min(bytes.count, offset + cut)
            items += try pipeline.consume(bytes[offset..<end])
            offset = end
        }
        items += try pipeline.finish()
        return items.map { String(decoding: $0, as: UTF8.self) }
    }

    static let cases: [(StoredObjectFormat, StoredObjectCompression?)] = [
        (.geojson, nil), (.geojson, .gzip), (.geojson, .zstd), (.ndjson, nil), (.ndjson, .gzip), (.ndjson, .zstd),
    ]

    @Test(arguments: 0..<cases.count)
    func featuresComeOutOnceInOrderWhereverTheBytesAreCut(index: Int) throws {
        let (format, compression) = Self.cases[index]
        let features = (0..<60).map(Self.feature)
        let (bytes, location) = try Self.object(features, format: format, compression: compression)
        let expected = features.map { String(decoding: $0, as: UTF8.self) }
        for cut in [1, 2, 3, 17, 100, 4_096, bytes.count] {
            #expect(try Self.read(bytes, location, cut: cut) == expected, "\(format) \(String(describing: compression)) cut \(cut)")
        }
    }

    @Test(arguments: [StoredObjectFormat.geojson, .ndjson])
    func idsComeOutAsTheirJSON(format: StoredObjectFormat) throws {
        let ids: [[UInt8]] = [Array("1".utf8), Array("22".utf8), Array(#""a,b""#.utf8), Array("-4".utf8)]
        let (bytes, location) = try Self.object(ids, format: format, compression: nil, ids: true)
        #expect(try Self.read(bytes, location, cut: 1) == ["1", "22", #""a,b""#, "-4"])
    }

    /// Ids as one JSON array (`application/json`, how the worker frames a GeoJSON-format ids layer), numbers and
    /// strings.
    @Test(arguments: ["application/json", "application/geo+json"])
    func aTopLevelArrayOfIdsIsRead(contentType: String) throws {
        let bytes = Array("[1, 2,\n3,\"x]\"]\n".utf8)
        let location = StoredResultLocation(
            url: "s3://b/k", httpURL: "http://127.0.0.1:1/k", expiresAt: Date(), bytes: bytes.count,
            sha256: SHA256.hexDigest(bytes), contentType: contentType, ids: 4)
        #expect(try Self.read(bytes, location, cut: 2) == ["1", "2", "3", #""x]""#])
    }

    @Test func anEmptyLayerHasNoItems() throws {
        let (bytes, location) = try Self.object([], format: .geojson, compression: .zstd)
        #expect(try Self.read(bytes, location, cut: 5).isEmpty)
    }

    @Test func aWrongDigestIsAChecksumMismatch() throws {
        var (bytes, location) = try Self.object((0..<5).map(Self.feature), format: .ndjson, compression: .gzip)
        location.sha256 = String(repeating: "0", count: 64)
        let error = #expect(throws: FeatureQueryError.self) { try Self.read(bytes, location, cut: 10) }
        #expect(error?.code == .storedResultChecksumMismatch)
        #expect(error?.isRetryable == true)
        // Damaged bytes that no longer decompress are reported as damage, not as a decoding failure.
        (bytes, location) = try Self.object((0..<5).map(Self.feature), format: .ndjson, compression: .gzip)
        bytes[bytes.count / 2] ^= 0xFF
        let damaged = #expect(throws: FeatureQueryError.self) { try Self.read(bytes, location, cut: 10) }
        #expect(damaged?.code == .storedResultChecksumMismatch)
    }

    @Test func moreOrFewerBytesThanTheLocationSaysIsASizeMismatch() throws {
        let (bytes, location) = try Self.object((0..<5).map(Self.feature), format: .geojson, compression: nil)
        let longer = #expect(throws: FeatureQueryError.self) { try Self.read(bytes + [0x20], location, cut: 64) }
        #expect(longer?.code == .storedResultSizeMismatch)
        let shorter = #expect(throws: FeatureQueryError.self) { try Self.read(Array(bytes.dropLast()), location, cut: 64) }
        #expect(shorter?.code == .storedResultSizeMismatch)
    }

    @Test func anotherCountIsMalformed() throws {
        var (bytes, location) = try Self.object((0..<5).map(Self.feature), format: .ndjson, compression: nil)
        location.features = 6
        let error = #expect(throws: FeatureQueryError.self) { try Self.read(bytes, location, cut: 64) }
        #expect(error?.code == .storedResultMalformed)
        #expect(error?.isRetryable == false)
    }

    @Test func anUnknownEncodingOrTypeIsMalformed() throws {
        var (_, location) = try Self.object([], format: .ndjson, compression: nil)
        location.contentEncoding = "br"
        #expect(throws: FeatureQueryError.self) { _ = try StoredObjectPipeline(location) }
        location.contentEncoding = nil
        location.contentType = "text/csv"
        #expect(throws: FeatureQueryError.self) { _ = try StoredObjectPipeline(location) }
    }

    /// The client reads content types by their names: the same names the worker's writer uses.
    @Test func theClientKnowsTheWritersContentTypes() {
        for format in StoredObjectFormat.allCases {
            let location = StoredResultLocation(
                url: "s3://b/k", httpURL: "http://h/k", expiresAt: Date(), bytes: 0, sha256: "", contentType: format.contentType, features: 0)
            #expect(location.format?.rawValue == format.rawValue)
        }
        for compression in StoredObjectCompression.allCases {
            let location = StoredResultLocation(
                url: "s3://b/k", httpURL: "http://h/k", expiresAt: Date(), bytes: 0, sha256: "", contentType: "application/geo+json",
                contentEncoding: compression.contentEncoding, features: 0)
            #expect(location.compression?.rawValue == compression.rawValue)
        }
    }
}
