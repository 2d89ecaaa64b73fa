import FeatureQueryClient
import Foundation
import Logging
import ObjectStoreFixture
import StoredResults

/// The fixture's stored objects as the locations a worker's result would carry.
///
/// moto runs without signature checking: with checking on, moto 5.2.5 answers 500 to any request without an
/// `Authorization` header, presigned GETs included (docs/object-store.md).
enum MotoStore {
    private static let open = Task<MotoServer, any Error> { try await MotoServer.start(bucket: "results", signatureChecking: false) }

    static func server() async throws -> MotoServer { try await open.value }

    static let logger = Logger(label: "stored-result-client-tests") { _ in SwiftLogNoOpLogHandler() }

    /// Stores `items` (features' or ids' JSON); its key and the location the worker would publish.
    static func store(
        _ items: [[UInt8]], format: StoredObjectFormat, compression: StoredObjectCompression?, ids: Bool = false, in moto: MotoServer
    ) async throws -> (key: String, location: StoredResultLocation) {
        let object = try await moto.storeObject(items, format: format, compression: compression)
        let summary = object.stored.summary
        let location = StoredResultLocation(
            url: object.url, httpURL: object.httpURL, expiresAt: object.expiresAt, bytes: summary.bytes, sha256: summary.sha256,
            contentType: object.stored.contentType, contentEncoding: object.stored.contentEncoding,
            features: ids ? nil : summary.features, ids: ids ? summary.features : nil)
        return (object.key, location)
    }

    /// A key no other test uses.
    static func uniqueKey(_ name: String) -> String { "client-tests/\(name)-\(UUID().uuidString.prefix(8))/0.ndjson" }

    static func feature(_ id: Int) -> [UInt8] {
        Array(#"{"type":"Feature","id":\#(id),"geometry":{"type":"Point","coordinates":[-118.\#(id % 997),34.\#(id % 991)]},"properties":{"OBJECTID":\#(id),"Name":"parcel \#(id)"}}"#.utf8)
    }
}
