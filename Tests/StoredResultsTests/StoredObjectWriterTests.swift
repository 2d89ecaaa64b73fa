import ChildProcessFixture
import FeatureQuerySupport
import Foundation
import StoredResults
import Testing

/// The object a large result becomes, checked without a store: its parts joined are the document the format
/// promises, every part but the last is at least the part size, and the size and SHA-256 are those of the bytes.
@Suite struct StoredObjectWriterTests {
    static func feature(_ id: Int) -> [UInt8] {
        Array(#"{"type":"Feature","id":\#(id),"geometry":null,"properties":{"OBJECTID":\#(id),"Name":"parcel \#(id)"}}"#.utf8)
    }

    /// Writes `count` features in parts of `partBytes`; returns the parts in order and the completion's summary.
    static func write(
        _ count: Int, format: StoredObjectFormat, compression: StoredObjectCompression? = nil, partBytes: Int
    ) throws -> (parts: [[UInt8]], summary: StoredObjectWriter.Summary, single: Bool) {
        guard var writer = StoredObjectWriter(format: format, compression: compression, partBytes: partBytes, allowingSmallParts: true) else {
            throw NoDigest()
        }
        var parts: [[UInt8]] = []
        for id in 0..<count {
            if let part = try writer.append(feature: feature(id)) {
                #expect(part.number == parts.count + 1, "parts numbered from 1 in order")
                parts.append(part.bytes)
            }
        }
        switch try writer.finish() {
        case .single(let bytes, let summary):
            return ([bytes], summary, true)
        case .multipart(let last, let summary):
            #expect(last.number == parts.count + 1)
            return (parts + [last.bytes], summary, false)
        }
    }

    @Test(arguments: [0, 1, 999])
    func geoJSONPartsJoinIntoOneFeatureCollection(count: Int) throws {
        let (parts, summary, _) = try Self.write(count, format: .geojson, partBytes: 4_096)
        let whole = parts.flatMap { $0 }
        let document = try #require(try JSONSerialization.jsonObject(with: Data(whole)) as? [String: Any])
        #expect(document["type"] as? String == "FeatureCollection")
        let features = try #require(document["features"] as? [[String: Any]])
        #expect(features.count == count)
        #expect(features.map { $0["id"] as? Int } == (0..<count).map { $0 })
        #expect(summary.features == count && summary.bytes == whole.count && summary.parts == parts.count)
        #expect(summary.sha256 == ASCII.hexString(SHA256.digest(whole)), "the digest of exactly the stored bytes")
        for part in parts.dropLast() { #expect(part.count >= 4_096, "only the last part may be short") }
    }

    @Test func ndjsonIsOneFeaturePerLine() throws {
        let (parts, summary, single) = try Self.write(2_000, format: .ndjson, partBytes: 16_384)
        #expect(!single)
        let whole = parts.flatMap { $0 }
        let lines = whole.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        #expect(lines.last?.isEmpty == true, "every line ends")
        #expect(lines.dropLast().count == 2_000)
        for (id, line) in lines.dropLast().enumerated() { #expect(Array(line) == Self.feature(id)) }
        #expect(summary.sha256 == ASCII.hexString(SHA256.digest(whole)))
        #expect(StoredObjectFormat.ndjson.contentType == "application/x-ndjson")
    }

    @Test func aSmallResultIsOnePieceAndAnEmptyOneIsStillADocument() throws {
        let (parts, summary, single) = try Self.write(3, format: .geojson, partBytes: 1 << 20)
        #expect(single && parts.count == 1 && summary.parts == 1)
        let (empty, emptySummary, _) = try Self.write(0, format: .geojson, partBytes: 1 << 20)
        #expect(String(decoding: empty.flatMap { $0 }, as: UTF8.self) == #"{"type":"FeatureCollection","features":[]}"# + "\n")
        #expect(emptySummary.features == 0)
        let (nothing, nothingSummary, _) = try Self.write(0, format: .ndjson, partBytes: 1 << 20)
        #expect(nothing.flatMap { $0 }.isEmpty && nothingSummary.bytes == 0)
        #expect(nothingSummary.sha256 == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855", "SHA-256 of nothing")
    }

    @Test func partsAreNeverSmallerThanS3AllowsUnlessAskedFor() throws {
        guard var writer = StoredObjectWriter(format: .ndjson, partBytes: 1_000) else { throw NoDigest() }
        var cut = false
        // 1 MiB of features: below S3's 5 MiB minimum, so no part may be cut yet.
        for id in 0..<10_000 where try writer.append(feature: Self.feature(id)) != nil { cut = true }
        #expect(!cut)
        #expect(writer.partsCut == 0)
    }
}

/// Compressed objects, read back by the command-line tools a user would use (gzip and zstd from Debian).
@Suite struct StoredObjectCompressionTests {
    @Test(arguments: StoredObjectCompression.allCases)
    func compressedPartsDecompressToTheSameDocument(compression: StoredObjectCompression) async throws {
        let plain = try StoredObjectWriterTests.write(20_000, format: .ndjson, partBytes: 1 << 20).parts.flatMap { $0 }
        let (parts, summary, single) = try StoredObjectWriterTests.write(
            20_000, format: .ndjson, compression: compression, partBytes: 4 << 10)
        #expect(!single && parts.count > 2, "several parts: \(parts.map(\.count))")
        let stored = parts.flatMap { $0 }
        #expect(summary.bytes == stored.count && summary.sha256 == ASCII.hexString(SHA256.digest(stored)))
        #expect(stored.count * 5 < plain.count, "JSON compresses: \(stored.count) of \(plain.count)")
        let tool = compression == .gzip ? "gzip" : "zstd"
        let decompressed = try await Decompress.run(tool, stored)
        #expect(decompressed == plain, "\(tool) -dc gives back the uncompressed object")
        #expect(compression.contentEncoding == (compression == .gzip ? "gzip" : "zstd"))
    }
}

/// `gzip -dc` or `zstd -dc` over bytes, through a file (no pipe-buffer juggling).
enum Decompress {
    struct Failed: Error, CustomStringConvertible { var description: String }

    static func run(_ tool: String, _ bytes: [UInt8]) async throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stored-\(UUID().uuidString)").path
        guard FileManager.default.createFile(atPath: path, contents: Data(bytes)) else { throw Failed(description: "cannot write \(path)") }
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Waited for asynchronously: a blocking read would hold one of the two cooperative threads meanwhile.
        return try await ChildProcesses.output(of: ["/usr/bin/env", tool, "-dc", path])
    }
}

/// libcrypto could not make a digest context (out of memory).
struct NoDigest: Error {}

@Suite struct StoredObjectNameTests {
    @Test func aRequestsLayerHasOneNameWhateverTheIds() {
        #expect(StoredObjectName.key(prefix: "feature-queries/", taskId: "map-1", requestId: "r.2", layer: "0", format: .geojson)
            == "feature-queries/map-1/r.2/0.geojson")
        #expect(StoredObjectName.key(prefix: "", taskId: "t", requestId: "r", layer: "3", format: .ndjson, compression: .gzip)
            == "t/r/3.ndjson.gz")
        // No id climbs out of its folder or needs escaping in a URL.
        let hostile = StoredObjectName.key(prefix: "p", taskId: "../..", requestId: "a/b c?d", layer: "1", format: .geojson)
        #expect(hostile == "p/%2E.%2F../a%2Fb%20c%3Fd/1.geojson")
        #expect(!hostile.split(separator: "/").contains { $0 == ".." || $0 == "." })
        #expect(StoredObjectName.key(prefix: "p", taskId: "", requestId: "é", layer: "0", format: .geojson) == "p/%00/%C3%A9/0.geojson")
    }
}

/// Ids are framed as one JSON array (`geojson`) or one per line (`ndjson`), with their own content type; a layer
/// with nothing in it is still a valid document.
@Suite struct StoredIdsFramingTests {
    static func whole(_ format: StoredObjectFormat, _ content: StoredObjectContent, _ items: [String]) throws -> String {
        guard var writer = StoredObjectWriter(format: format, content: content, partBytes: 1 << 20, allowingSmallParts: true) else {
            throw NoDigest()
        }
        for item in items { #expect(try writer.append(feature: Array(item.utf8)) == nil) }
        guard case .single(let bytes, let summary) = try writer.finish() else { throw NoDigest() }
        #expect(summary.features == items.count && summary.bytes == bytes.count)
        return String(decoding: bytes, as: UTF8.self)
    }

    @Test func idsAreAnArrayOrLines() throws {
        #expect(try Self.whole(.geojson, .ids, ["1", "2", "3"]) == "[1,2,3]\n")
        #expect(try Self.whole(.ndjson, .ids, ["\"a\"", "\"b\""]) == "\"a\"\n\"b\"\n")
        #expect(StoredObjectFormat.geojson.contentType(for: .ids) == "application/json")
        #expect(StoredObjectFormat.ndjson.contentType(for: .ids) == "application/x-ndjson")
        #expect(StoredObjectFormat.geojson.contentType(for: .features) == "application/geo+json")
    }

    @Test func nothingAppendedIsStillAValidDocument() throws {
        #expect(try Self.whole(.geojson, .features, []) == #"{"type":"FeatureCollection","features":[]}"# + "\n")
        #expect(try Self.whole(.geojson, .ids, []) == "[]\n")
        #expect(try Self.whole(.ndjson, .features, []) == "")
    }
}
