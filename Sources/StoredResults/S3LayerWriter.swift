import FeatureService
import ObjectStore
import Foundation

/// One layer's object in S3: appends go to the ``StoredObjectUpload`` (which suspends while two parts are on the
/// wire: the engine's page loop slows to the store's pace), `finish` completes it, checks the size, and presigns
/// the GET URL the result carries; `abort` drops the multipart upload.
final class S3LayerWriter: StoredLayerWriter {
    let upload: StoredObjectUpload
    let kind: StoredSelection.Kind
    /// The layer's URL, for errors.
    let layer: String
    /// `s3://bucket/key`.
    let target: String
    /// Told when this writer ends, so ``S3ResultStore/abortUnfinished()`` skips it; also the client and the URL
    /// lifetime. The store holds its open writers and each writer its store: the cycle ends when the writer
    /// finishes or aborts, or when the worker calls `abortUnfinished()` after the run (which it always does).
    private let store: S3ResultStore

    init(upload: StoredObjectUpload, kind: StoredSelection.Kind, layer: String, target: String, store: S3ResultStore) {
        self.upload = upload
        self.kind = kind
        self.layer = layer
        self.target = target
        self.store = store
    }

    func append(_ items: [ArraySlice<UInt8>]) async throws(FeatureServiceError) {
        do {
            try await upload.append(items)
        } catch {
            // The upload aborted itself at its first failure; nothing is left to drop.
            store.ended(self)
            throw StoreFailure.map(error, layer: layer, target: target)
        }
    }

    func finish() async throws(FeatureServiceError) -> StoredSelection {
        defer { store.ended(self) }
        let stored: StoredObjectUpload.Stored
        do {
            stored = try await upload.finish()
        } catch {
            throw StoreFailure.map(error, layer: layer, target: target)
        }
        let configuration = store.configuration
        let signedAt = store.now()
        let url: String
        do {
            url = try await configuration.client.presignedGetURL(key: stored.key, expires: configuration.urlLifetime, now: signedAt)
        } catch {
            throw StoreFailure.map(error, layer: layer, target: target)
        }
        let lifetime = configuration.urlLifetime.components
        let expiresAt = Int64(signedAt.timeIntervalSince1970 * 1_000) + lifetime.seconds * 1_000
        return StoredSelection(
            kind: kind, url: target, httpURL: url, expiresAt: expiresAt, bytes: stored.summary.bytes, sha256: stored.summary.sha256,
            contentType: stored.contentType, contentEncoding: stored.contentEncoding, count: stored.summary.features)
    }

    func abort() async {
        store.ended(self)
        await upload.abort()
    }
}
