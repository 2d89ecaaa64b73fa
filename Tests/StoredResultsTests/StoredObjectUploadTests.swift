import FeatureQuerySupport
import StoredResults
import Synchronization
import Testing

/// The upload's rules, against a store in memory (the real store, moto's S3, is ObjectStoreTests'): parts in flight
/// bounded, completed in number order, the stored size checked, and any failure aborting the upload.
/// What the store double answers when it refuses.
struct StoreRefusal: Error {
    var message: String
}

/// The double's 503 SlowDown: retryable, after a short Retry-After.
struct SlowDown: StoreRetryAdvice {
    var isRetryable: Bool { true }
    var retryAfter: Duration? { .milliseconds(5) }
}

@Suite struct StoredObjectUploadTests {
    /// S3's multipart API over dictionaries, counting what was asked of it.
    final class MemoryStore: MultipartObjectStore {
        struct State {
            var uploads: [String: [Int: [UInt8]]] = [:]
            var objects: [String: [UInt8]] = [:]
            var inFlight = 0
            var mostInFlight = 0
            var aborted = 0
            var puts = 0
            var attempts: [Int: Int] = [:]
        }
        let state = Mutex(State())
        let failPart: Int?
        let sizeSkew: Int
        /// Part number → how many of its first attempts are answered 503 SlowDown.
        let slowDowns: [Int: Int]

        init(failPart: Int? = nil, sizeSkew: Int = 0, slowDowns: [Int: Int] = [:]) {
            self.failPart = failPart
            self.sizeSkew = sizeSkew
            self.slowDowns = slowDowns
        }

        func createMultipartUpload(key: String, contentType: String, contentEncoding: String?) async throws -> String {
            state.withLock { $0.uploads["u-\(key)"] = [:] }
            return "u-\(key)"
        }

        func uploadPart(key: String, uploadId: String, partNumber: Int, bytes: [UInt8]) async throws -> String {
            state.withLock {
                $0.inFlight += 1
                $0.mostInFlight = max($0.mostInFlight, $0.inFlight)
            }
            // Let other appends run while this part is "on the wire".
            for _ in 0..<20 { await Task.yield() }
            defer { state.withLock { $0.inFlight -= 1 } }
            if partNumber == failPart { throw StoreRefusal(message: "part \(partNumber) refused (403)") }
            let attempt = state.withLock { state in
                state.attempts[partNumber, default: 0] += 1
                return state.attempts[partNumber, default: 0]
            }
            if attempt <= slowDowns[partNumber, default: 0] { throw SlowDown() }
            try state.withLock { state in
                guard state.uploads[uploadId] != nil else { throw StoreRefusal(message: "NoSuchUpload") }
                state.uploads[uploadId]?[partNumber] = bytes
            }
            return "etag-\(partNumber)"
        }

        func completeMultipartUpload(key: String, uploadId: String, parts: [StoredPartReceipt]) async throws {
            try state.withLock { state in
                guard let held = state.uploads.removeValue(forKey: uploadId) else { throw StoreRefusal(message: "NoSuchUpload") }
                #expect(parts.map(\.partNumber) == Array(1...parts.count), "listed in number order")
                #expect(parts.allSatisfy { $0.etag == "etag-\($0.partNumber)" })
                state.objects[key] = parts.flatMap { held[$0.partNumber] ?? [] }
            }
        }

        func abortMultipartUpload(key: String, uploadId: String) async throws {
            state.withLock {
                $0.uploads[uploadId] = nil
                $0.aborted += 1
            }
        }

        func putObject(key: String, bytes: [UInt8], contentType: String, contentEncoding: String?) async throws {
            state.withLock {
                $0.objects[key] = bytes
                $0.puts += 1
            }
        }

        func objectSize(key: String) async throws -> Int {
            (state.withLock { $0.objects[key]?.count } ?? -1) + sizeSkew
        }
    }

    static func upload(_ store: MemoryStore, features: Int, partBytes: Int = 2_048, pages: Int = 4) async throws -> StoredObjectUpload.Stored {
        guard let writer = StoredObjectWriter(format: .ndjson, partBytes: partBytes, allowingSmallParts: true) else { throw NoDigest() }
        let upload = StoredObjectUpload(store: store, key: "k", writer: writer, maxPartsInFlight: 2)
        // Several page tasks at once, as an engine's parallel pages deliver them.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for page in 0..<pages {
                group.addTask {
                    let ids = stride(from: page, to: features, by: pages)
                    try await upload.append(ids.map { ArraySlice(StoredObjectWriterTests.feature($0)) })
                }
            }
            try await group.waitForAll()
        }
        return try await upload.finish()
    }

    @Test func partsFromConcurrentPagesMakeTheWholeObject() async throws {
        let store = MemoryStore()
        let stored = try await Self.upload(store, features: 3_000)
        let object = try #require(store.state.withLock { $0.objects["k"] })
        let lines = object.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 3_000)
        #expect(Set(lines.map { Array($0) }) == Set((0..<3_000).map { StoredObjectWriterTests.feature($0) }), "every feature once")
        #expect(stored.summary.bytes == object.count && stored.summary.sha256 == ASCII.hexString(SHA256.digest(object)))
        #expect(stored.summary.parts > 10 && stored.contentType == "application/x-ndjson")
        let (most, left) = store.state.withLock { ($0.mostInFlight, $0.uploads.count) }
        #expect(most <= 2, "at most two parts on the wire at once: \(most)")
        #expect(most == 2, "parts do overlap")
        #expect(left == 0, "no upload left open")
    }

    @Test func aSmallObjectIsOnePut() async throws {
        let store = MemoryStore()
        let stored = try await Self.upload(store, features: 3, partBytes: 1 << 20)
        #expect(stored.summary.parts == 1)
        #expect(store.state.withLock { $0.puts == 1 && $0.uploads.isEmpty })
    }

    @Test func aFailedPartAbortsTheUpload() async throws {
        let store = MemoryStore(failPart: 5)
        await #expect(throws: StoreRefusal.self) { try await Self.upload(store, features: 3_000) }
        let (aborted, open, objects) = store.state.withLock { ($0.aborted, $0.uploads.count, $0.objects.count) }
        #expect(aborted == 1 && open == 0, "aborted, nothing left behind")
        #expect(objects == 0, "no object was made")
    }

    @Test func aThrottledPartIsSentAgainAndTheUploadCompletes() async throws {
        let store = MemoryStore(slowDowns: [3: 2])
        let stored = try await Self.upload(store, features: 3_000)
        #expect(stored.summary.features == 3_000)
        let (attempts, objects) = store.state.withLock { ($0.attempts[3], $0.objects.count) }
        #expect(attempts == 3, "two 503s, then accepted")
        #expect(objects == 1)
    }

    @Test func aPartThrottledEveryTimeEndsTheUploadAborted() async throws {
        let store = MemoryStore(slowDowns: [3: 100])
        await #expect(throws: SlowDown.self) { try await Self.upload(store, features: 3_000) }
        let (attempts, aborted, open) = store.state.withLock { ($0.attempts[3], $0.aborted, $0.uploads.count) }
        #expect(attempts == StoredObjectUpload.partAttempts)
        #expect(aborted >= 1 && open == 0)
    }

    @Test func aStoredSizeThatDisagreesIsAFailure() async throws {
        let store = MemoryStore(sizeSkew: -1)
        await #expect(throws: StoredObjectUpload.Failure.self) { try await Self.upload(store, features: 3_000) }
    }

    @Test func anAbortedUploadTakesNoMore() async throws {
        let store = MemoryStore()
        guard let writer = StoredObjectWriter(format: .geojson, partBytes: 1_024, allowingSmallParts: true) else { throw NoDigest() }
        let upload = StoredObjectUpload(store: store, key: "k", writer: writer)
        try await upload.append((0..<200).map { ArraySlice(StoredObjectWriterTests.feature($0)) })
        await upload.abort()
        await #expect(throws: StoredObjectUpload.Failure.self) { try await upload.append([ArraySlice(StoredObjectWriterTests.feature(1))]) }
        #expect(store.state.withLock { $0.aborted == 1 && $0.uploads.isEmpty && $0.objects.isEmpty })
    }
}
