import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// `/query` on the parcels FeatureServer's tables: how a client loads their rows, and the `ParcelAPN IN (…)`
/// fallback when related paging or ordering is missing.
@Suite("Related tables: query")
struct RelatedTableQueryTests {
    @Test("Parcel_Assessments pages through all its rows (maxRecordCount 1000); features carry attributes only")
    func paging() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let total = try #require(try await client.query(server, .parcelAssessments, [
                ("where", "1=1"), ("returnCountOnly", "true"), ("f", "json"),
            ]).countResult)
            #expect(total > server.dataset.parcelCount * 2 && total < server.dataset.parcelCount * 4)
            let first = try await client.query(server, .parcelAssessments, [("where", "1=1"), ("outFields", "*"), ("f", "json")])
            #expect(first.featureIDs == Array(1...1000) && first.exceededTransferLimit == true)
            #expect(first.features.allSatisfy { $0["geometry"] == nil && $0.attributes.count == 5 })
            let nearEnd = try await client.query(server, .parcelAssessments, [
                ("where", "1=1"), ("outFields", "*"), ("resultOffset", String(total - 1500)), ("resultRecordCount", "1000"), ("f", "json"),
            ])
            #expect(nearEnd.featureIDs == Array((total - 1499)...(total - 500)) && nearEnd.exceededTransferLimit == true)
            let last = try await client.query(server, .parcelAssessments, [
                ("where", "1=1"), ("outFields", "*"), ("resultOffset", String(total - 500)), ("resultRecordCount", "1000"), ("f", "json"),
            ])
            #expect(last.featureIDs == Array((total - 499)...total) && last.exceededTransferLimit == false)
            let ids = try await client.query(server, .parcelAssessments, [("where", "TaxYear = 2024"), ("returnIdsOnly", "true"), ("f", "json")])
            #expect(ids.objectIDs.count > server.dataset.parcelCount / 2 && ids.objectIDs.count < server.dataset.parcelCount)
        }
    }

    @Test("ParcelAPN IN (…) gives exactly those parcels' rows, ordered and paged; parcel 2 has 1,500")
    func inClause() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let apns = try await client.apns(server, [1, 2, 3])
            let list = [1, 2, 3].compactMap { apns[$0] }.map { "'\($0)'" }.joined(separator: ",")
            let count = try await client.query(server, .parcelAssessments, [("where", "ParcelAPN IN (\(list))"), ("returnCountOnly", "true"), ("f", "json")])
            let big = try await client.query(server, .parcelAssessments, [("where", "ParcelAPN = '\(apns[2] ?? "")'"), ("returnCountOnly", "true"), ("f", "json")])
            #expect(big.countResult == 1500)
            #expect((count.countResult ?? 0) >= 1500 && (count.countResult ?? 0) <= 1512)
            let rows = try await client.tableRows(server, .parcelAssessments, key: "ParcelAPN", in: Array(apns.values))
            #expect(rows.count == count.countResult)
            // Keys that are no parcel's APN (one whose map book overflows when read as a number) match nothing.
            let odd = try await client.query(server, .parcelAssessments, [
                ("where", "ParcelAPN IN ('9223372036854775807-999-050', '4000-1000-001', 'x', '\(apns[2] ?? "")')"),
                ("returnCountOnly", "true"), ("f", "json"),
            ])
            #expect(odd.countResult == 1500)
            // The same clause the key index cannot serve (a top-level OR) scans the table: the same rows.
            let scanned = try await client.query(server, .parcelAssessments, [
                ("where", "ParcelAPN IN (\(list)) OR 1=0"), ("returnIdsOnly", "true"), ("f", "json"),
            ])
            #expect(scanned.objectIDs.sorted() == rows.compactMap { $0.int("OBJECTID") })
            let andTerm = try await client.query(server, .parcelAssessments, [
                ("where", "TaxYear >= 2020 AND ParcelAPN IN (\(list))"), ("returnIdsOnly", "true"), ("f", "json"),
            ])
            #expect(andTerm.objectIDs.sorted() == rows.filter { ($0.int("TaxYear") ?? 0) >= 2020 }.compactMap { $0.int("OBJECTID") })
            #expect(Set(rows.compactMap { $0["ParcelAPN"] as? String }) == Set(apns.values.filter { apn in rows.contains { $0["ParcelAPN"] as? String == apn } }))
            #expect(rows.allSatisfy { apns.values.contains($0["ParcelAPN"] as? String ?? "") })
            let ordered = try await client.query(server, .parcelAssessments, [
                ("where", "ParcelAPN IN (\(list))"), ("outFields", "ParcelAPN,TaxYear"), ("orderByFields", "ParcelAPN,TaxYear DESC"),
                ("resultOffset", "1490"), ("resultRecordCount", "30"), ("f", "json"),
            ])
            let keys = ordered.features.map { ($0.attributes["ParcelAPN"] as? String ?? "", $0.attributes.int("TaxYear") ?? 0) }
            #expect(keys.count == min(30, (count.countResult ?? 0) - 1490))
            #expect(zip(keys, keys.dropFirst()).allSatisfy { $0.0 < $1.0 || ($0.0 == $1.0 && $0.1 >= $1.1) })
        }
    }

    @Test("a parcel's rows are consecutive OBJECTIDs, and for some parcels OBJECTID order is not TaxYear order")
    func objectIDOrder() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let page = try await client.query(server, .parcelAssessments, [
                ("where", "OBJECTID > 1600 AND OBJECTID <= 2600"), ("outFields", "*"), ("f", "json"),
            ])
            var runs: [(apn: String, years: [Int])] = []
            for feature in page.features {
                let apn = feature.attributes["ParcelAPN"] as? String ?? ""
                let year = feature.attributes.int("TaxYear") ?? 0
                if runs.last?.apn == apn { runs[runs.count - 1].years.append(year) } else { runs.append((apn, [year])) }
            }
            #expect(Set(runs.map(\.apn)).count == runs.count, "each parcel's rows are one run")
            let longer = runs.dropFirst().dropLast().filter { $0.years.count > 1 }
            #expect(longer.contains { $0.years == $0.years.sorted(by: >) })
            #expect(longer.contains { $0.years == $0.years.sorted() })
            #expect(longer.allSatisfy { $0.years.max() == 2024 })
            #expect(page.features.contains { $0.attributes["AssessedValue"] is NSNull })
            #expect(page.features.contains { $0.attributes["Exemption"] is String })
        }
    }

    @Test("geometry parameters are ignored on a table; Parcel_Owners has one row for most parcels")
    func ownersAndGeometry() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let all = try await client.query(server, .parcelOwners, [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")])
            let total = try #require(all.countResult)
            #expect(total > server.dataset.parcelCount * 8 / 10 && total < server.dataset.parcelCount)
            let spatial = try await client.query(server, .parcelOwners, [
                ("where", "1=1"), ("geometry", "0,0,1,1"), ("geometryType", "esriGeometryEnvelope"), ("returnCountOnly", "true"), ("f", "json"),
            ])
            #expect(spatial.countResult == total)
            let page = try await client.query(server, .parcelOwners, [("where", "OwnerType = 'Trust'"), ("outFields", "*"), ("f", "json")])
            #expect(page.features.count == 1000)
            #expect(page.features.allSatisfy { ($0.attributes["OwnerName"] as? String)?.hasSuffix("Family Trust") == true })
            let apns = page.features.compactMap { $0.attributes["OwnerAPN"] as? String }
            #expect(Set(apns).count == apns.count)
        }
    }
}
