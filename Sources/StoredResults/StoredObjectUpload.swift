/// One large result written to the object store while its pages arrive: features go through a
/// ``StoredObjectWriter``; each part it cuts is uploaded at once, at most ``maxPartsInFlight`` at a time (further
/// appends wait: the engine's page loops slow down instead of the worker holding the result), and the upload is
/// completed and its size checked, or aborted: by ``abort()``, and by the upload itself at its first failure.
///
/// An actor: the engines append from several page tasks at once. Parts are numbered as they are cut, so they may
/// finish out of order; completion lists them in number order.
package actor StoredObjectUpload {
    /// Where the object went and what it holds.
    package struct Stored: Sendable, Hashable {
        package var key: String
        package var summary: StoredObjectWriter.Summary
        package var contentType: String
        package var contentEncoding: String?
    }

    /// Why an upload did not complete.
    package struct Failure: Error, Sendable, CustomStringConvertible {
        package var message: String
        package var description: String { message }
        package init(message: String) { self.message = message }
    }

    private let store: any MultipartObjectStore
    package nonisolated let key: String
    private let contentType: String
    private let contentEncoding: String?
    private let maxPartsInFlight: Int
    private var writer: StoredObjectWriter?
    private var uploadId: String?
    private var creating: Task<String, any Error>?
    private var receipts: [StoredPartReceipt] = []
    private var inFlight = 0
    private var waiting: [CheckedContinuation<Void, Never>] = []
    private var failure: (any Error)?
    /// Set by ``abort()``: no upload is created after it (a page task still appending would start a new one).
    private var aborted = false

    /// An upload of `key` with `writer`'s format; `maxPartsInFlight` parts (each ``StoredObjectWriter``'s part
    /// size) at most in memory and on the wire at once.
    package init(store: any MultipartObjectStore, key: String, writer: consuming StoredObjectWriter, maxPartsInFlight: Int = 2) {
        self.store = store
        self.key = key
        contentType = writer.format.contentType(for: writer.content)
        contentEncoding = writer.compression?.contentEncoding
        self.maxPartsInFlight = max(1, maxPartsInFlight)
        self.writer = .some(writer)
    }

    /// Adds a page's features; returns once any part they completed is on its way (or waits for a slot).
    package func append(_ features: [ArraySlice<UInt8>]) async throws {
        for feature in features {
            try check()
            guard var current = writer.take() else { throw Failure(message: "the upload of \(key) has ended") }
            let part: StoredObjectWriter.Part?
            do {
                part = try current.append(feature: feature)
            } catch {
                let failure = record(error)
                await abort()
                throw failure
            }
            writer = .some(current)
            if let part { try await send(part) }
        }
    }

    /// Ends the object: the last part, completion, and a check that the store holds exactly the bytes written.
    /// On any failure the upload is aborted before this throws.
    package func finish() async throws -> Stored {
        try check()
        guard let current = writer.take() else { throw Failure(message: "the upload of \(key) has ended") }
        do {
            let completion = try current.finish()
            let summary: StoredObjectWriter.Summary
            switch completion {
            case .single(let bytes, let whole):
                summary = whole
                try await store.putObject(key: key, bytes: bytes, contentType: contentType, contentEncoding: contentEncoding)
            case .multipart(let last, let whole):
                summary = whole
                try await upload(last)
                while inFlight > 0 { await slot() }
                try check()
                guard let uploadId else { throw Failure(message: "no upload id for \(key)") }
                try await store.completeMultipartUpload(
                    key: key, uploadId: uploadId, parts: receipts.sorted { $0.partNumber < $1.partNumber })
                self.uploadId = nil
            }
            let size = try await store.objectSize(key: key)
            guard size == summary.bytes else {
                throw Failure(message: "the store holds \(size) bytes of \(key), \(summary.bytes) were written")
            }
            return Stored(key: key, summary: summary, contentType: contentType, contentEncoding: contentEncoding)
        } catch {
            await abort()
            throw error
        }
    }

    /// Drops the upload (a failure, a supersession, a cancellation): no part stays behind. Idempotent.
    package func abort() async {
        aborted = true
        writer = nil
        let id: String?
        if let uploadId {
            id = uploadId
        } else {
            id = try? await creating?.value
        }
        self.uploadId = nil
        creating = nil
        guard let id else { return }
        // In a task of its own: the caller is often cancelled (a superseded or cancelled request), and the S3
        // client gives up at once in a cancelled task, which would leave the upload (and its parts) behind.
        let (store, key) = (store, key)
        await Task { try? await store.abortMultipartUpload(key: key, uploadId: id) }.value
    }

    private func send(_ part: StoredObjectWriter.Part) async throws {
        while inFlight >= maxPartsInFlight { await slot() }
        try await upload(part)
    }

    /// Uploads one part (creating the upload first); other appends may run meanwhile.
    private func upload(_ part: StoredObjectWriter.Part) async throws {
        inFlight += 1
        defer {
            inFlight -= 1
            if !waiting.isEmpty { waiting.removeFirst().resume() }
        }
        do {
            let id = try await uploadID()
            let etag = try await sendPart(part, uploadId: id)
            receipts.append(StoredPartReceipt(partNumber: part.number, etag: etag))
        } catch {
            // The first failure ends the upload for every appender: aborted here, so no part stays behind even
            // when the caller does not get to call ``abort()``.
            let failure = record(error)
            await abort()
            throw failure
        }
    }

    /// How often a part is sent in all when the store's refusals are retryable, and the first wait when the store
    /// names none (doubling after each).
    package static let partAttempts = 4
    package static let firstBackoff: Duration = .milliseconds(200)

    /// Sends one part, again after a retryable refusal (503 SlowDown, a dropped connection): a result of thousands
    /// of parts should not fail on one throttled request. The store's `Retry-After` is honoured.
    private func sendPart(_ part: StoredObjectWriter.Part, uploadId: String) async throws -> String {
        var backoff = Self.firstBackoff
        for attempt in 1... {
            do {
                return try await store.uploadPart(key: key, uploadId: uploadId, partNumber: part.number, bytes: part.bytes)
            } catch let advice as any StoreRetryAdvice where advice.isRetryable && attempt < Self.partAttempts && failure == nil {
                try await Task.sleep(for: advice.retryAfter ?? backoff)
                backoff *= 2
            }
        }
        throw Failure(message: "part \(part.number) of \(key) was not accepted")
    }

    /// The upload id, created once however many parts ask at the same time.
    private func uploadID() async throws -> String {
        if let uploadId { return uploadId }
        guard !aborted else { throw failure ?? Failure(message: "the upload of \(key) was aborted") }
        let task: Task<String, any Error>
        if let creating {
            task = creating
        } else {
            let (store, key, contentType, contentEncoding) = (store, key, contentType, contentEncoding)
            task = Task { try await store.createMultipartUpload(key: key, contentType: contentType, contentEncoding: contentEncoding) }
            creating = task
        }
        let id = try await task.value
        // Aborted while it was being created: abort() has dropped it; this part goes nowhere.
        guard !aborted else { throw failure ?? Failure(message: "the upload of \(key) was aborted") }
        uploadId = uploadId ?? id
        return id
    }

    /// Waits until a part upload ends (a slot frees).
    private func slot() async {
        await withCheckedContinuation { waiting.append($0) }
    }

    private func check() throws {
        if let failure { throw failure }
    }

    private func record(_ error: any Error) -> any Error {
        if failure == nil { failure = error }
        return error
    }
}
