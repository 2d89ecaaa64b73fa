import FeatureQuerySupport
import Testing
import WorkerTestSupport
@testable import RequestContract

/// Where a request's deadline comes from: the message's `deadline` or `timeoutMs`, else the decoder's default
/// (the worker's `requestTimeout`), which the decoder applies while it makes the request.
@Suite struct ContractDeadlineTests {
    static let layer = "https://gis.example.org/arcgis/rest/services/Parcels/FeatureServer/0"
    static let receivedAt: Int64 = 1_748_779_200_000

    static func deadline(_ extra: String, defaultTimeoutMs: Int64?) throws -> Int64? {
        let value = #"{"requestId":"r-1","targets":[{"type":"arcgis","url":"\#(layer)"}],"query":{}\#(extra)}"#
        let decoder = RequestDecoder(namedQueries: try ContractSupport.decoder().namedQueries, defaultTimeoutMs: defaultTimeoutMs)
        guard case .query(let request) = decoder.decode(Array(value.utf8), key: nil, receivedAt: receivedAt) else {
            Issue.record("not a query: \(value)")
            return nil
        }
        return request.deadline
    }

    @Test func aMessageWithoutADeadlineGetsTheDefault() throws {
        #expect(try Self.deadline("", defaultTimeoutMs: 30_000) == Self.receivedAt + 30_000)
    }

    @Test func theMessagesOwnDeadlineOrTimeoutWinsOverTheDefault() throws {
        #expect(try Self.deadline(#","timeoutMs":5"#, defaultTimeoutMs: 30_000) == Self.receivedAt + 5)
        let instant = try #require(RFC3339.milliseconds(from: "2025-06-01T12:00:00Z"))
        #expect(try Self.deadline(#","deadline":"2025-06-01T12:00:00Z""#, defaultTimeoutMs: 30_000) == instant)
    }

    @Test(arguments: [nil, 0, -1] as [Int64?])
    func withoutAPositiveDefaultSuchARequestHasNoDeadline(_ defaultTimeoutMs: Int64?) throws {
        #expect(try Self.deadline("", defaultTimeoutMs: defaultTimeoutMs) == nil)
    }

    @Test func aDefaultPastTheEndOfTimeIsTheLastInstant() throws {
        #expect(try Self.deadline("", defaultTimeoutMs: .max) == .max)
    }
}
