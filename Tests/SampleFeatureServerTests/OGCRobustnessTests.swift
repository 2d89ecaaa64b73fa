import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("OGC robustness")
struct OGCRobustnessTests {
    @Test("odd and hostile inputs get 400 or 404 (never a 5xx), and the server goes on serving")
    func hostileInputs() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let items = server.itemsURL("LA_County_Parcels")
            let deep = String(repeating: "(", count: 5_000) + "OBJECTID = 1" + String(repeating: ")", count: 5_000)
            let cases: [[(String, String)]] = [
                [("filter", deep)], [("filter", String(repeating: "x", count: 9_000))], [("bbox", "nan,0,1,1")],
                [("bbox", "1e400,0,1,1")], [("limit", "99999999999999999999999")], [("offset", "1e3")],
                [("filter", #"{"op":"and","args":"#), ("filter-lang", "cql2-json")], [("datetime", "2020-13-45")],
                [("filter", "UseType = 'Residential' AND S_INTERSECTS(geometry, POINT(1000 1000))")],
                [("crs", "")], [("bbox", ",,,")], [("filter", "\u{0}")], [("APN", "\u{FFFF}")],
            ]
            for parameters in cases {
                let response = try await client.get(items, parameters)
                #expect([200, 400].contains(response.status), "\(parameters.map(\.0)) → \(response.status)")
                #expect((try? response.jsonObject()) != nil, "\(parameters.map(\.0)): \(response.bodyString.prefix(200))")
            }
            // A request line past the HTTP layer's limit is refused there, before the OGC face.
            let huge = try await client.get(items, [("filter", String(repeating: "x", count: 200_000))])
            #expect((400..<500).contains(huge.status))
            for path in ["/ogc/collections/%00/items", "/ogc/collections/" + String(repeating: "a", count: 4_000), "/ogc-quirks/,,,/collections",
                         "/ogc-quirks/max-limit-0/collections", "/ogc/collections/USA_Cities/items/-1", "/ogc/collections/USA_Cities/items/1/extra"] {
                let response = try await client.get(server.rootURL + path)
                #expect(response.status == 404, "\(path) → \(response.status): \(response.bodyString.prefix(200))")
            }
            #expect(try await client.ogc(items).numberReturned == 10)
        }
    }

    @Test("an offset past the end answers an empty page without next; the last page has no next")
    func pastTheEnd() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let past = try await client.ogc(server.itemsURL("USA_States"), [("offset", "1000")])
            #expect(past.features.isEmpty && past.numberReturned == 0 && past.numberMatched == 49 && past.nextHref == nil)
            let last = try await client.ogc(server.itemsURL("USA_States"), [("offset", "40"), ("limit", "9")])
            #expect(last.featureIDsOGC == Array(41...49) && last.nextHref == nil)
            let exact = try await client.ogc(server.itemsURL("USA_States"), [("offset", "39"), ("limit", "10")])
            #expect(exact.featureIDsOGC == Array(40...49) && exact.nextHref == nil)
        }
    }
}
