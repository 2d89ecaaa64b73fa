import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// What the metadata says about tables, relationships, attachments and the related-records capabilities.
@Suite("Related tables and attachments: metadata")
struct RelatedMetadataTests {
    @Test("the parcels FeatureServer (11.2) lists its two tables under tables, not layers")
    func serviceTables() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let service = try await client.json(server.serviceURL(.laCountyParcels), [("f", "json")])
            #expect(service["currentVersion"] as? NSNumber == 11.2)
            #expect((service["layers"] as? [[String: Any]])?.compactMap { $0.int("id") } == [0, 1])
            let tables = service["tables"] as? [[String: Any]] ?? []
            #expect(tables.compactMap { $0.int("id") } == [2, 3])
            #expect(tables.compactMap { $0["name"] as? String } == ["Parcel_Assessments", "Parcel_Owners"])
            let usa = try await client.json(server.serviceURL(.usa), [("f", "json")])
            #expect((usa["tables"] as? [Any])?.isEmpty == true)
            let all = try await client.json(server.serviceURL(.laCountyParcels) + "/layers", [("f", "json")])
            #expect((all["layers"] as? [[String: Any]])?.count == 2)
            #expect((all["tables"] as? [[String: Any]])?.map { $0["type"] as? String } == ["Table", "Table"])
        }
    }

    @Test("a table's JSON: type Table, no geometry, its fields, maxRecordCount 1000, Query, its relationship")
    func tableJSON() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let table = try await client.json(server.layerURL(.parcelAssessments), [("f", "json")])
            #expect(table["type"] as? String == "Table")
            #expect(table["geometryType"] == nil && table["extent"] == nil)
            #expect((table["fields"] as? [[String: Any]])?.compactMap { $0["name"] as? String }
                == ["OBJECTID", "ParcelAPN", "TaxYear", "AssessedValue", "Exemption"])
            #expect(table.int("maxRecordCount") == 1000)
            #expect(table["capabilities"] as? String == "Query")
            #expect(table["hasAttachments"] as? Bool == false)
            let relationships = table["relationships"] as? [[String: Any]] ?? []
            #expect(relationships.count == 1)
            #expect(relationships.first?.int("id") == 4 && relationships.first?.int("relatedTableId") == 0)
            #expect(relationships.first?["role"] as? String == "esriRelRoleDestination")
            #expect(relationships.first?["keyField"] as? String == "ParcelAPN")
            #expect(relationships.first?["cardinality"] as? String == "esriRelCardinalityOneToMany")
            let owners = try await client.json(server.layerURL(.parcelOwners), [("f", "json")])
            let owner = (owners["relationships"] as? [[String: Any]])?.first
            #expect(owner?.int("id") == 9 && owner?["name"] as? String == "Parcel_Owner")
            #expect(owner?["cardinality"] as? String == "esriRelCardinalityOneToOne" && owner?["keyField"] as? String == "OwnerAPN")
        }
    }

    @Test("relationships of the parcels, states and counties; every other layer publishes none")
    func relationships() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            func relationships(_ layer: SampleLayer) async throws -> [[String: Any]] {
                try await client.json(server.layerURL(layer), [("f", "json")])["relationships"] as? [[String: Any]] ?? [["missing": true]]
            }
            let parcels = try await relationships(.parcels)
            #expect(parcels.map { $0.int("id") } == [4, 9])
            #expect(parcels.map { $0["name"] as? String } == ["Parcel_Assessments", "Parcel_Owner"])
            #expect(parcels.map { $0.int("relatedTableId") } == [2, 3])
            #expect(parcels.allSatisfy { $0["role"] as? String == "esriRelRoleOrigin" && $0["keyField"] as? String == "APN" })
            #expect(parcels.allSatisfy { $0["composite"] as? Bool == false })
            let states = try await relationships(.states)
            #expect(states.count == 1 && states.first?.int("id") == 2 && states.first?.int("relatedTableId") == 3)
            #expect(states.first?["role"] as? String == "esriRelRoleOrigin" && states.first?["keyField"] as? String == "STATE_NAME")
            let counties = try await relationships(.counties)
            #expect(counties.count == 1 && counties.first?.int("relatedTableId") == 2)
            #expect(counties.first?["role"] as? String == "esriRelRoleDestination")
            for layer in [SampleLayer.parcelSales, .legacyParcels, .cities, .highways, .elevation] {
                #expect(try await relationships(layer).isEmpty, "\(layer)")
            }
        }
    }

    @Test("hasAttachments on parcels and cities only; related capabilities default per service")
    func attachmentsAndDefaults() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            for layer in SampleLayer.allCases {
                let metadata = try await client.json(server.layerURL(layer), [("f", "json")])
                #expect(metadata["hasAttachments"] as? Bool == (layer == .parcels || layer == .cities), "\(layer)")
            }
            let parcels = try await client.json(server.layerURL(.parcels), [("f", "json")])
            #expect(parcels.capability("supportsQueryRelatedPagination") == true)
            #expect(parcels.capability("supportsAdvancedQueryRelated") == true)
            #expect(parcels.capability("supportsQueryAttachments") == true)
            let states = try await client.json(server.layerURL(.states), [("f", "json")])
            #expect(states.capability("supportsQueryRelatedPagination") == false)
            #expect(states.capability("supportsAdvancedQueryRelated") == false)
            #expect(states.capability("supportsQueryAttachments") == false)
            let cities = try await client.json(server.layerURL(.cities), [("f", "json")])
            #expect(cities.capability("supportsQueryAttachments") == true)
        }
    }

    @Test("--query-option sets the related flags per server and per layer over the service defaults")
    func options() async throws {
        var configuration = SampleServerConfiguration()
        try configuration.applyQuerySpecs(
            options: [
                "LA_County_Parcels/FeatureServer/0=supportsAdvancedQueryRelated=false", "supportsQueryRelatedPagination=true",
                "USA/MapServer/0=supportsQueryAttachments=false",
            ],
            quirks: ["related-short-chunk"])
        #expect(throws: QueryOptionError.self) { try configuration.applyQueryOption("supportsRelatedMagic=true") }
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let states = try await client.json(server.layerURL(.states), [("f", "json")])
            #expect(states.capability("supportsQueryRelatedPagination") == true)
            #expect(states.capability("supportsAdvancedQueryRelated") == false)
            let parcels = try await client.json(server.layerURL(.parcels), [("f", "json")])
            #expect(parcels.capability("supportsAdvancedQueryRelated") == false)
            #expect(parcels.capability("supportsQueryRelatedPagination") == true)
            let cities = try await client.json(server.layerURL(.cities), [("f", "json")])
            #expect(cities.capability("supportsQueryAttachments") == false)
        }
    }
}
