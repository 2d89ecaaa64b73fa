import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// `queryRelatedRecords` on the parcels FeatureServer (11.2: related paging and ordering) and the USA MapServer
/// (11.1: neither), checked against the related tables read through `/query`.
@Suite("Related records")
struct RelatedRecordsTests {
    /// Origins 1 and 3…40: parcel 2 (1,500 assessments) left out, so the answer stays under the limit.
    static let smallOrigins = [1] + Array(3...40)
    static var smallIDs: String { smallOrigins.map(String.init).joined(separator: ",") }

    @Test("groups ascend by origin, hold the rows keyed by the origin's APN in related OBJECTID order; origins without rows are omitted")
    func groups() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let apns = try await client.apns(server, Self.smallOrigins)
            let rows = try await client.tableRows(server, .parcelAssessments, key: "ParcelAPN", in: Array(apns.values))
            var expected: [Int: [Int]] = [:]
            for (origin, apn) in apns {
                let ids = rows.filter { $0["ParcelAPN"] as? String == apn }.compactMap { $0.int("OBJECTID") }
                if !ids.isEmpty { expected[origin] = ids }
            }
            // Duplicates, an id of no parcel and a reversed order change nothing.
            let answer = try await client.related(server, .parcels, [
                ("objectIds", Self.smallIDs + ",5,999999999," + Self.smallOrigins.reversed().map(String.init).joined(separator: ",")),
                ("relationshipId", "4"), ("outFields", "*"),
            ])
            let groups = answer.relatedGroups
            #expect(groups.map(\.objectID) == expected.keys.sorted())
            #expect(groups.count < Self.smallOrigins.count, "some parcels have no assessments")
            for group in groups {
                #expect(group.rows.compactMap { $0.int("OBJECTID") } == expected[group.objectID], "origin \(group.objectID)")
                #expect(group.rows.allSatisfy { $0["ParcelAPN"] as? String == apns[group.objectID] })
            }
            #expect(answer.exceededTransferLimit == false)
            #expect((answer["fields"] as? [[String: Any]])?.count == 5)
            #expect(answer["geometryType"] == nil)
        }
    }

    @Test("outFields keeps the related OBJECTID; definitionExpression filters the related rows")
    func fieldsAndFilter() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let narrow = try await client.related(server, .parcels, [
                ("objectIds", Self.smallIDs), ("relationshipId", "4"), ("outFields", "TaxYear"),
            ])
            #expect((narrow["fields"] as? [[String: Any]])?.compactMap { $0["name"] as? String } == ["OBJECTID", "TaxYear"])
            #expect(narrow.relatedRecords.first.map { Set($0.attributes.keys) } == ["OBJECTID", "TaxYear"])
            // Every parcel's years end at 2024: one row per group remains.
            let latest = try await client.related(server, .parcels, [
                ("objectIds", Self.smallIDs), ("relationshipId", "4"), ("definitionExpression", "TaxYear = 2024"),
            ])
            #expect(latest.relatedGroups.map(\.objectID) == narrow.relatedGroups.map(\.objectID))
            #expect(latest.relatedGroups.allSatisfy { $0.rows.count == 1 && $0.rows[0].int("TaxYear") == 2024 })
            let exempt = try await client.related(server, .parcels, [
                ("objectIds", Self.smallIDs), ("relationshipId", "4"), ("definitionExpression", "Exemption IS NOT NULL"),
            ])
            #expect(!exempt.relatedGroups.isEmpty && exempt.relatedGroups.count < narrow.relatedGroups.count)
            #expect(exempt.relatedRecords.allSatisfy { $0.attributes["Exemption"] is String })
        }
    }

    @Test("without orderByFields rows follow related OBJECTID, which is not TaxYear order for every parcel; orderByFields orders each group, ties by OBJECTID")
    func ordering() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let plain = try await client.related(server, .parcels, [("objectIds", Self.smallIDs), ("relationshipId", "4")])
            let years = plain.relatedGroups.map { $0.rows.compactMap { $0.int("TaxYear") } }
            #expect(years.contains { $0.count > 1 && $0 == $0.sorted(by: >) }, "a parcel lists its years newest first")
            #expect(years.contains { $0.count > 1 && $0 == $0.sorted() })
            let ordered = try await client.related(server, .parcels, [
                ("objectIds", Self.smallIDs), ("relationshipId", "4"), ("orderByFields", "TaxYear DESC"),
            ])
            #expect(ordered.relatedGroups.map(\.objectID) == plain.relatedGroups.map(\.objectID))
            for group in ordered.relatedGroups {
                let years = group.rows.compactMap { $0.int("TaxYear") }
                #expect(years == years.sorted(by: >), "origin \(group.objectID)")
            }
            #expect(ordered.relatedPairs != plain.relatedPairs)
            // Exemption is NULL for most rows: ties, broken by related OBJECTID.
            let ties = try await client.related(server, .parcels, [
                ("objectIds", Self.smallIDs), ("relationshipId", "4"), ("orderByFields", "Exemption"),
            ])
            for group in ties.relatedGroups {
                let nulls = group.rows.filter { $0["Exemption"] is NSNull }.compactMap { $0.int("OBJECTID") }
                #expect(nulls == nulls.sorted())
                #expect(group.rows.prefix(nulls.count).allSatisfy { $0["Exemption"] is NSNull }, "NULL first")
            }
        }
    }

    @Test("the transfer limit (1000, the table's) counts rows over all groups, and a single origin above it is cut too")
    func transferLimit() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let alone = try await client.related(server, .parcels, [("objectIds", "2"), ("relationshipId", "4")])
            #expect(alone.relatedGroups.map(\.objectID) == [2])
            #expect(alone.relatedRecords.count == 1000 && alone.exceededTransferLimit == true)
            let counts = try await client.related(server, .parcels, [("objectIds", "1,2,3"), ("relationshipId", "4"), ("returnCountOnly", "true")])
            let groups = counts["relatedRecordGroups"] as? [[String: Any]] ?? []
            let first = groups.first { $0.int("objectId") == 1 }?.int("count") ?? 0
            let three = try await client.related(server, .parcels, [("objectIds", "3,2,1"), ("relationshipId", "4")])
            #expect(three.relatedRecords.count == 1000 && three.exceededTransferLimit == true)
            let pairs = three.relatedPairs
            #expect(pairs.filter { $0.origin == 1 }.count == first)
            #expect(pairs.filter { $0.origin == 2 }.count == 1000 - first)
            #expect(!pairs.contains { $0.origin == 3 })
        }
    }

    @Test("returnCountOnly: a count per origin with rows, no transfer limit")
    func countOnly() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let answer = try await client.related(server, .parcels, [
                ("objectIds", "2," + Self.smallIDs), ("relationshipId", "4"), ("returnCountOnly", "true"),
            ])
            let groups = answer["relatedRecordGroups"] as? [[String: Any]] ?? []
            let counts = Dictionary(uniqueKeysWithValues: groups.compactMap { group in group.int("objectId").map { ($0, group.int("count") ?? -1) } })
            #expect(counts[2] == 1500)
            #expect(groups.compactMap { $0.int("objectId") } == counts.keys.sorted())
            #expect(answer["exceededTransferLimit"] == nil && answer["fields"] == nil)
            let rows = try await client.related(server, .parcels, [("objectIds", Self.smallIDs), ("relationshipId", "4")])
            for group in rows.relatedGroups { #expect(counts[group.objectID] == group.rows.count) }
            #expect(counts.values.allSatisfy { $0 > 0 })
        }
    }

    @Test("related paging pages the concatenation of the groups; exceededTransferLimit is true exactly when rows follow")
    func paging() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let whole = try await client.related(server, .parcels, [("objectIds", Self.smallIDs), ("relationshipId", "4")])
            var pages: [Pair] = []
            var flags: [Bool] = []
            while true {
                let page = try await client.related(server, .parcels, [
                    ("objectIds", Self.smallIDs), ("relationshipId", "4"), ("resultOffset", String(pages.count)), ("resultRecordCount", "7"),
                ])
                pages += page.relatedPairs
                flags.append(page.exceededTransferLimit ?? false)
                if page.exceededTransferLimit != true { break }
            }
            #expect(pages == whole.relatedPairs)
            #expect(flags.dropLast().allSatisfy { $0 } && flags.last == false)
            #expect(flags.count == (whole.relatedPairs.count + 6) / 7)
            // resultRecordCount is capped at the table's 1000.
            let big = try await client.related(server, .parcels, [
                ("objectIds", "2"), ("relationshipId", "4"), ("resultRecordCount", "5000"),
            ])
            #expect(big.relatedRecords.count == 1000 && big.exceededTransferLimit == true)
            let rest = try await client.related(server, .parcels, [
                ("objectIds", "2"), ("relationshipId", "4"), ("resultOffset", "1000"), ("resultRecordCount", "1000"),
            ])
            #expect(rest.relatedRecords.count == 500 && rest.exceededTransferLimit == false)
            #expect(Set(big.relatedPairs).isDisjoint(with: rest.relatedPairs))
        }
    }

    @Test("Parcel_Owner is one to one, and a table answers from its side with its parcel")
    func ownersAndDestination() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let origins = Array(1...60)
            let apns = try await client.apns(server, origins)
            let owners = try await client.related(server, .parcels, [
                ("objectIds", origins.map(String.init).joined(separator: ",")), ("relationshipId", "9"),
            ])
            #expect(owners.relatedGroups.allSatisfy { $0.rows.count == 1 && $0.rows[0]["OwnerAPN"] as? String == apns[$0.objectID] })
            #expect(owners.relatedGroups.count < origins.count && owners.relatedGroups.count > 40)
            #expect(owners.relatedRecords.allSatisfy {
                ["Individual", "Trust", "Corporation", "Government"].contains($0.attributes["OwnerType"] as? String ?? "")
            })
            let rows = try await client.query(server, .parcelAssessments, [
                ("where", "OBJECTID <= 12"), ("outFields", "OBJECTID,ParcelAPN"), ("f", "json"),
            ])
            let back = try await client.related(server, .parcelAssessments, [
                ("objectIds", "1,2,3,4,5,6,7,8,9,10,11,12"), ("relationshipId", "4"), ("outFields", "APN"),
            ])
            #expect(back.relatedGroups.map(\.objectID) == Array(1...12))
            for feature in rows.features {
                let group = back.relatedGroups.first { $0.objectID == feature.attributes.int("OBJECTID") }
                #expect(group?.rows.count == 1 && group?.rows.first?["APN"] as? String == feature.attributes["ParcelAPN"] as? String)
            }
            #expect(back["geometryType"] as? String == "esriGeometryPolygon")
            #expect(back.relatedRecords.allSatisfy { $0["geometry"] is [String: Any] })
        }
    }

    @Test("states → counties: the counties of the state, geometry in the layer's spatial reference (or outSR); counties → state")
    func stateCounties() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let states = try await client.query(server, .states, [("objectIds", "1,2,3,4,5"), ("outFields", "OBJECTID,STATE_NAME"), ("f", "json")])
            let answer = try await client.related(server, .states, [("objectIds", "1,2,3,4,5"), ("relationshipId", "2")])
            #expect(answer.relatedGroups.map(\.objectID) == [1, 2, 3, 4, 5])
            #expect(answer["geometryType"] as? String == "esriGeometryPolygon")
            #expect((answer["spatialReference"] as? [String: Any])?.int("wkid") == 4326)
            for state in states.features {
                let name = try #require(state.attributes["STATE_NAME"] as? String)
                let counties = try await client.query(server, .counties, [
                    ("where", "STATE_NAME = '\(name.replacingOccurrences(of: "'", with: "''"))'"), ("returnIdsOnly", "true"), ("f", "json"),
                ])
                let group = answer.relatedGroups.first { $0.objectID == state.attributes.int("OBJECTID") }
                #expect(group?.rows.compactMap { $0.int("OBJECTID") } == counties.objectIDs.sorted())
                #expect(group?.rows.allSatisfy { $0["STATE_NAME"] as? String == name } == true)
            }
            let ring = ((answer.relatedRecords.first?["geometry"] as? [String: Any])?["rings"] as? [[[Double]]])?.first?.first
            #expect(ring.map { abs($0[0]) <= 180 } == true)
            let mercator = try await client.related(server, .states, [("objectIds", "1"), ("relationshipId", "2"), ("outSR", "102100")])
            #expect((mercator["spatialReference"] as? [String: Any])?.int("wkid") == 102100)
            let far = ((mercator.relatedRecords.first?["geometry"] as? [String: Any])?["rings"] as? [[[Double]]])?.first?.first
            #expect(far.map { abs($0[0]) > 1000 } == true)
            let bare = try await client.related(server, .states, [("objectIds", "1"), ("relationshipId", "2"), ("returnGeometry", "false")])
            #expect(!bare.relatedRecords.isEmpty && bare.relatedRecords.allSatisfy { $0["geometry"] == nil })
            let county = try #require(answer.relatedRecords.first?.attributes.int("OBJECTID"))
            let up = try await client.related(server, .counties, [("objectIds", String(county)), ("relationshipId", "2")])
            #expect(up.relatedGroups.first?.rows.first?.int("OBJECTID") == answer.relatedGroups.first?.objectID)
        }
    }

    static let advancedProbes: [[(String, String)]] = [
        [("orderByFields", "NAME")], [("returnCountOnly", "true")], [("resultOffset", "1")], [("resultRecordCount", "2")],
    ]

    @Test("USA/MapServer (11.1) refuses related ordering, counting and paging; --query-option turns them on")
    func mapServerRefusals() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            for probe in Self.advancedProbes {
                let answer = try await client.related(server, .states, [("objectIds", "1,2"), ("relationshipId", "2")] + probe)
                #expect(answer.errorCode == 400, "\(probe)")
                #expect((answer.error?["message"] as? String)?.contains("not supported") == true)
            }
            let plain = try await client.related(server, .states, [("objectIds", "1,2"), ("relationshipId", "2"), ("returnCountOnly", "false")])
            #expect(plain.errorCode == nil && plain.relatedGroups.count == 2)
        }
        var configuration = SampleServerConfiguration()
        try configuration.applyQueryOption("USA/MapServer/2=supportsAdvancedQueryRelated=true")
        try configuration.applyQueryOption("USA/MapServer/2=supportsQueryRelatedPagination=true")
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            for probe in Self.advancedProbes {
                let answer = try await client.related(server, .states, [("objectIds", "1,2"), ("relationshipId", "2")] + probe)
                #expect(answer.errorCode == nil, "\(probe): \(answer)")
            }
            let page = try await client.related(server, .states, [
                ("objectIds", "1,2"), ("relationshipId", "2"), ("resultRecordCount", "2"), ("orderByFields", "NAME DESC"),
            ])
            #expect(page.relatedRecords.count == 2 && page.exceededTransferLimit == true)
        }
    }

    @Test("the parcels FeatureServer refuses them with its knobs off")
    func featureServerKnobsOff() async throws {
        var configuration = SampleServerConfiguration()
        configuration.queryOptions.supportsAdvancedQueryRelated = false
        configuration.queryOptions.supportsQueryRelatedPagination = false
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            for probe in [[("orderByFields", "TaxYear")], [("returnCountOnly", "true")], [("resultOffset", "0")], [("resultRecordCount", "5")]] {
                let answer = try await client.related(server, .parcels, [("objectIds", "1,3"), ("relationshipId", "4")] + probe)
                #expect(answer.errorCode == 400, "\(probe)")
            }
            let metadata = try await client.json(server.layerURL(.parcels), [("f", "json")])
            #expect(metadata.capability("supportsQueryRelatedPagination") == false)
            let plain = try await client.related(server, .parcels, [("objectIds", "2"), ("relationshipId", "4")])
            #expect(plain.relatedRecords.count == 1000 && plain.exceededTransferLimit == true)
        }
    }

    @Test("bad requests: objectIds or relationshipId missing, an unknown relationship, a bad definitionExpression or field")
    func badRequests() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let cases: [(parameters: [(String, String)], message: String?)] = [
                ([("relationshipId", "4")], nil),
                ([("objectIds", "1")], nil),
                ([("objectIds", "1"), ("relationshipId", "0")], "Invalid relationship id"),
                ([("objectIds", "1"), ("relationshipId", "2")], "Invalid relationship id"),
                ([("objectIds", "1"), ("relationshipId", "four")], "Invalid relationship id"),
                ([("objectIds", "1"), ("relationshipId", "4"), ("definitionExpression", "NoSuchField = 1")], nil),
                ([("objectIds", "1"), ("relationshipId", "4"), ("definitionExpression", "TaxYear >")], nil),
                ([("objectIds", "1"), ("relationshipId", "4"), ("definitionExpression", "APN = 'x'")], nil),
                ([("objectIds", "1"), ("relationshipId", "4"), ("outFields", "APN")], nil),
                ([("objectIds", "1"), ("relationshipId", "4"), ("orderByFields", "Nope")], nil),
                ([("objectIds", "x"), ("relationshipId", "4")], nil),
            ]
            for (parameters, message) in cases {
                let answer = try await client.related(server, .parcels, parameters)
                #expect(answer.errorCode == 400, "\(parameters)")
                if let message { #expect(answer.error?["message"] as? String == message) }
            }
            let expression = try await client.related(server, .parcels, [
                ("objectIds", "1"), ("relationshipId", "4"), ("definitionExpression", "NoSuchField = 1"),
            ])
            #expect(expression.errorDetails.first?.contains("definitionExpression") == true)
            let legacy = try await client.get(server.layerURL(.legacyParcels) + "/queryRelatedRecords", [
                ("objectIds", "1"), ("relationshipId", "4"), ("f", "json"),
            ])
            #expect(try legacy.jsonObject().errorCode == 400)
        }
    }

    @Test("related-short-chunk: an answer with rows of several origins stops at 500 rows with the flag set; one origin is not cut")
    func shortChunk() async throws {
        let origins = ([1] + Array(3...400)).map(String.init).joined(separator: ",")
        let whole = try await TestSupport.withServer { (server, client) async throws in
            try await client.related(server, .parcels, [("objectIds", origins), ("relationshipId", "4")])
        }
        let configuration = try QueryQuirkTests.server("LA_County_Parcels/FeatureServer/0=related-short-chunk")
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            #expect(whole.relatedRecords.count == 1000, "the quirk-free answer reaches the real limit")
            let chunk = try await client.related(server, .parcels, [("objectIds", origins), ("relationshipId", "4")])
            #expect(chunk.relatedRecords.count == 500 && chunk.exceededTransferLimit == true)
            #expect(chunk.relatedPairs == Array(whole.relatedPairs.prefix(500)))
            let page = try await client.related(server, .parcels, [
                ("objectIds", origins), ("relationshipId", "4"), ("resultOffset", "500"), ("resultRecordCount", "1000"),
            ])
            #expect(page.relatedRecords.count == 500 && page.exceededTransferLimit == true)
            #expect(page.relatedPairs.first == whole.relatedPairs.dropFirst(500).first)
            let fewer = try await client.related(server, .parcels, [("objectIds", "1,3,4,5"), ("relationshipId", "4")])
            #expect(fewer.relatedRecords.count < 500 && fewer.exceededTransferLimit == false)
            let single = try await client.related(server, .parcels, [("objectIds", "2"), ("relationshipId", "4")])
            #expect(single.relatedRecords.count == 1000 && single.exceededTransferLimit == true)
        }
    }

    @Test("a POST form body answers as GET does")
    func post() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let parameters = [("objectIds", Self.smallIDs), ("relationshipId", "4"), ("orderByFields", "TaxYear"), ("f", "json")]
            let got = try await client.get(server.layerURL(.parcels) + "/queryRelatedRecords", parameters)
            let posted = try await client.post(server.layerURL(.parcels) + "/queryRelatedRecords", parameters)
            let groups = try posted.jsonObject().relatedGroups
            #expect(got.body == posted.body && !groups.isEmpty)
        }
    }
}
