package import FeatureService
package import Foundation
package import ObjectStore
import Synchronization

/// The result store of one request over S3 (issue 31's claim check): each layer an engine opens becomes one
/// object `<prefix>/<taskId>/<requestId>/<layer>.<ext>[.gz|.zst]` (``StoredObjectName``), written as its pages
/// arrive by a ``StoredObjectUpload`` and handed back as a ``StoredSelection`` with a presigned GET URL.
///
/// Made per request by the worker (cheap: the ``S3Client`` is the worker's, made once at start); it remembers the
/// writers it opened until each is finished or aborted, so ``abortUnfinished()`` can drop whatever an engine left
/// open (a run cancelled between `open` and the engine's own `abort`): no multipart upload outlives its request.
package final class S3ResultStore: ResultStore {
    /// What every request's store shares: the bucket's client, the prefix and the object settings.
    package struct Configuration: Sendable {
        package var client: S3Client
        /// The bucket and prefix (`s3://bucket/prefix`).
        package var location: S3Location
        /// The part size (S3's minimum, 5 MiB, except in tests with `allowingSmallParts`).
        package var partBytes: Int
        package var allowingSmallParts: Bool
        /// How long a presigned URL works.
        package var urlLifetime: Duration
        /// Parts in memory and on the wire at once per layer.
        package var maxPartsInFlight: Int

        package init(
            client: S3Client, location: S3Location, partBytes: Int = StoredObjectWriter.defaultPartBytes,
            allowingSmallParts: Bool = false, urlLifetime: Duration = .seconds(3600), maxPartsInFlight: Int = 2
        ) {
            self.client = client
            self.location = location
            self.partBytes = partBytes
            self.allowingSmallParts = allowingSmallParts
            self.urlLifetime = urlLifetime
            self.maxPartsInFlight = maxPartsInFlight
        }
    }

    package let delivery: StoreDelivery
    let configuration: Configuration
    package let taskId: String
    package let requestId: String
    package let format: StoredObjectFormat
    package let compression: StoredObjectCompression?
    /// Now, for presigned URLs' signing time and `expiresAt`; injected by tests.
    let now: @Sendable () -> Date
    private let open = Mutex<[ObjectIdentifier: S3LayerWriter]>([:])

    package init(
        configuration: Configuration, delivery: StoreDelivery, taskId: String, requestId: String, format: StoredObjectFormat,
        compression: StoredObjectCompression?, now: @escaping @Sendable () -> Date = { Date() }
    ) {
        self.configuration = configuration
        self.delivery = delivery
        self.taskId = taskId
        self.requestId = requestId
        self.format = format
        self.compression = compression
        self.now = now
    }

    /// The key `layer`'s object is stored under.
    package func key(of layer: ProgressLayer) -> String {
        StoredObjectName.key(
            prefix: configuration.location.prefix, taskId: taskId, requestId: requestId,
            layer: StoredObjectName.layerSegment(url: layer.url, layerId: layer.layerId, collection: layer.collection),
            format: format, compression: compression)
    }

    package func open(_ layer: ProgressLayer, kind: StoredSelection.Kind) async throws(FeatureServiceError) -> any StoredLayerWriter {
        let key = key(of: layer)
        let target = "s3://\(configuration.location.bucket)/\(key)"
        guard
            let writer = StoredObjectWriter(
                format: format, compression: compression, content: kind == .ids ? .ids : .features, partBytes: configuration.partBytes,
                allowingSmallParts: configuration.allowingSmallParts)
        else {
            throw StoreFailure.unavailable("\(target) could not be started: no digest or compression context (out of memory?)", layer: layer.url)
        }
        let upload = StoredObjectUpload(
            store: configuration.client, key: key, writer: writer, maxPartsInFlight: configuration.maxPartsInFlight)
        let layerWriter = S3LayerWriter(upload: upload, kind: kind, layer: layer.url, target: target, store: self)
        open.withLock { $0[ObjectIdentifier(layerWriter)] = layerWriter }
        return layerWriter
    }

    /// Aborts every writer not finished or aborted yet. The worker calls it once the engines have answered,
    /// whatever the outcome: an engine aborts its writers on failure and cancellation, this makes sure of it.
    /// Returns how many it aborted.
    @discardableResult
    package func abortUnfinished() async -> Int {
        let left = open.withLock { writers in
            defer { writers.removeAll() }
            return Array(writers.values)
        }
        for writer in left { await writer.abort() }
        return left.count
    }

    /// How many writers are open (neither finished nor aborted).
    package var unfinishedCount: Int { open.withLock { $0.count } }

    func ended(_ writer: S3LayerWriter) {
        _ = open.withLock { $0.removeValue(forKey: ObjectIdentifier(writer)) }
    }
}
