import FeatureService
import SampleFeatureServer
import Testing

@testable import OGCEngine

/// OGC API Features has no related records and no attachments: a collection asked for them fails with
/// `unsupported_query`, never an empty answer that would read as "none".
@Suite("OGC collections: related records and attachments are unsupported")
struct UnsupportedQueryTests {
    @Test("result related and attachments fail per collection with unsupported_query", arguments: [
        ServiceQuery(result: .related, related: RelatedQuery(relationship: .name("State_Counties"))),
        ServiceQuery(result: .attachments),
    ])
    func unsupported(_ query: ServiceQuery) async throws {
        try await SampleServerInteropTests.withSample { server, engine in
            let outcome = await SampleServerInteropTests.run(engine, server.ogcURL(quirks: []), query)
            #expect(outcome.failure?.code == .unsupportedQuery)
            #expect(outcome.failure?.message.contains("OGC API Features has no") == true)
            #expect(outcome.failure?.isRetryable == false)
            #expect(server.statistics.ogcItemRequests.isEmpty, "nothing is fetched for a query the protocol cannot answer")
        }
    }
}
