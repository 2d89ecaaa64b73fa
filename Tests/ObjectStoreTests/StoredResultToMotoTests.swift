import ChildProcessFixture
import FeatureQuerySupport
import Foundation
import ObjectStore
import ObjectStoreFixture
import StoredResults
import Testing

/// A large result's whole path into the store: features appended page by page from several tasks, framed, cut into
/// 8 MiB parts and uploaded as they are cut to moto checking every signature, completed and size-checked; read back
/// by boto3, byte for byte against the writer's SHA-256.
@Suite("Stored results to moto")
struct StoredResultToMotoTests {
    static func feature(_ id: Int) -> ArraySlice<UInt8> {
        ArraySlice(#"{"type":"Feature","id":\#(id),"geometry":{"type":"Point","coordinates":[-118.\#(id % 997),34.\#(id % 991)]},"properties":{"OBJECTID":\#(id)}}"#.utf8)
    }

    /// Uploads `count` features from four page tasks; the object's name and what the upload says it stored.
    static func store(
        _ count: Int, compression: StoredObjectCompression?, in moto: MotoServer
    ) async throws -> (key: String, stored: StoredObjectUpload.Stored, openUploads: Int) {
        let key = ObjectStoreTestSupport.uniqueKey("stored") + "/0.ndjson" + (compression.map { ".\($0.fileExtension)" } ?? "")
        return try await ObjectStoreTestSupport.withClient(moto) { s3 in
            guard let writer = StoredObjectWriter(format: .ndjson, compression: compression) else {
                throw StoredObjectUpload.Failure(message: "no digest or compression context")
            }
            let upload = StoredObjectUpload(store: s3, key: key, writer: writer)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for page in 0..<4 {
                    group.addTask {
                        for start in stride(from: page * 1_000, to: count, by: 4_000) {
                            try await upload.append((start..<min(start + 1_000, count)).map(Self.feature))
                        }
                    }
                }
                try await group.waitForAll()
            }
            let stored = try await upload.finish()
            return (key, stored, try await s3.listMultipartUploads(prefix: key).count)
        }
    }

    @Test func aResultOfSeveralPartsIsStoredWholeAndNothingIsLeftOpen() async throws {
        let moto = try await SharedMoto.server()
        // About 13 MiB of NDJSON: an 8 MiB part (the default) and a shorter last one.
        let count = 100_000
        let (key, stored, open) = try await Self.store(count, compression: nil, in: moto)
        #expect(stored.summary.parts == 2, "\(stored.summary)")
        #expect(stored.summary.features == count)
        #expect(open == 0, "the upload was completed, not left open")
        let read = try await moto.readWithBoto3(key: key)
        #expect(read.count == stored.summary.bytes)
        #expect(SHA256.hexDigest(read) == stored.summary.sha256)
        let lines = read.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == count)
        #expect(Set(lines.map { Array($0) }).count == count, "every feature once")
    }

    @Test func aCompressedSmallResultIsOnePutThatGunzipsToItsFeatures() async throws {
        let moto = try await SharedMoto.server()
        let (key, stored, _) = try await Self.store(10_000, compression: .gzip, in: moto)
        #expect(stored.summary.parts == 1 && stored.contentEncoding == "gzip")
        let read = try await moto.readWithBoto3(key: key)
        #expect(SHA256.hexDigest(read) == stored.summary.sha256)
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("stored-\(UUID().uuidString).gz").path
        #expect(FileManager.default.createFile(atPath: path, contents: Data(read)))
        defer { try? FileManager.default.removeItem(atPath: path) }
        // Waited for asynchronously (a blocking read would hold one of the two cooperative threads meanwhile).
        let plain = try await ChildProcesses.output(of: ["/usr/bin/env", "gzip", "-dc", path])
        #expect(plain.split(separator: UInt8(ascii: "\n")).count == 10_000)
    }
}
