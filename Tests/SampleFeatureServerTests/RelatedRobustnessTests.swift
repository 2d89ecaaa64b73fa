import CurlHTTP
import FeatureQuerySupport
import Foundation
import SampleFeatureServer
import Testing

/// queryRelatedRecords, queryAttachments and the attachment resources under bad input: always an answer.
@Suite("Related records and attachments: robustness")
struct RelatedRobustnessTests {
    static let names = [
        "objectIds", "relationshipId", "outFields", "definitionExpression", "returnGeometry", "outSR", "orderByFields",
        "returnCountOnly", "resultOffset", "resultRecordCount", "returnUrl", "f",
    ]

    @Test("random combinations of bad values on the new operations always get HTTP 200, never a crash")
    func randomParameters() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            var generator = SplitMix64(seed: 20_261_206)
            let operations = ["queryRelatedRecords", "queryAttachments"]
            let layers: [SampleLayer] = [.parcels, .parcelAssessments, .states, .counties, .cities, .elevation]
            for round in 0..<120 {
                var parameters: [(String, String)] = [("objectIds", "1,2,3"), ("relationshipId", round % 3 == 0 ? "2" : "4")]
                for _ in 0..<(1 + Int(generator.next() % 3)) {
                    let name = Self.names[Int(generator.next() % UInt64(Self.names.count))]
                    let value = RobustnessTests.nasty[Int(generator.next() % UInt64(RobustnessTests.nasty.count))]
                    parameters.insert((name, value), at: 0)  // first occurrence wins: the nasty value is read
                }
                let url = server.layerURL(layers[round % layers.count]) + "/" + operations[round % 2]
                let response = round % 4 < 2 ? try await client.get(url, parameters) : try await client.post(url, parameters)
                #expect(response.status == 200, "\(url) \(parameters)")
            }
            for path in ["/0/attachments", "/-5/attachments", "/5/attachments/x", "/99999999999999999999/attachments/1", "/10/attachments/-1"] {
                let response = try await client.get(server.layerURL(.parcels) + path, [("f", "json")])
                let body = try response.jsonObject()
                #expect(response.status == 200 && body.errorCode == 404, "\(path)")
            }
            let count = try await client.related(server, .parcels, [("objectIds", "2"), ("relationshipId", "4"), ("returnCountOnly", "true")])
            #expect((count["relatedRecordGroups"] as? [[String: Any]])?.first?.int("count") == 1500)
        }
    }
}
