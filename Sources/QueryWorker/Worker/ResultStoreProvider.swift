import FeatureQuerySupport
import FeatureService
import Foundation
import ObjectStore
import RequestContract
import StoredResults

/// Makes each request's ``S3ResultStore`` over the one ``S3Client`` the worker builds at start (when
/// ``WorkerSettings/ResultStore/location`` is set): the request's `delivery`, `format` and `compression` decide
/// whether it gets one and how its objects are written.
struct ResultStoreProvider: Sendable {
    let configuration: S3ResultStore.Configuration
    /// A `delivery: auto` layer is stored past this many bytes.
    let thresholdBytes: Int

    /// The store of `request`: `nil` for `delivery: inline` (the engines then collect as before 1.3).
    func store(for request: QueryRequest) -> S3ResultStore? {
        let delivery: StoreDelivery
        switch request.delivery.mode {
        case .inline: return nil
        case .store: delivery = .always
        case .auto: delivery = .above(thresholdBytes: thresholdBytes)
        }
        return S3ResultStore(
            configuration: configuration, delivery: delivery, taskId: request.taskId, requestId: request.requestId,
            format: request.delivery.format == .ndjson ? .ndjson : .geojson, compression: Self.compression(request.delivery.compression))
    }

    static func compression(_ compression: ResultDelivery.Compression) -> StoredObjectCompression? {
        switch compression {
        case .none: nil
        case .gzip: .gzip
        case .zstd: .zstd
        }
    }
}

extension ContractError {
    /// `delivery: store` on a worker without a store: refused before anything runs, and not retryable (the
    /// same worker refuses it again), with the setting that would change that.
    static let storeNotConfigured = ContractError(
        .storeNotConfigured,
        "delivery: this worker has no result store, so it cannot store the result: send \"delivery\": \"auto\" or "
            + "\"inline\", or ask the operator to set resultStore (s3://bucket/prefix)",
        details: .object(["path": .string("delivery")]))
}
