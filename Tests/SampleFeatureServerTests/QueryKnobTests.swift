import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// The capability flags of ``LayerQueryOptions``: on, each parameter works and the metadata says true;
/// off, the metadata says false and the parameter is refused with an ArcGIS 400.
@Suite("Query capability knobs")
struct QueryKnobTests {
    static let count = #"[{"statisticType":"count","onStatisticField":"SalePrice","outStatisticFieldName":"n"}]"#
    static let percentile =
        #"[{"statisticType":"percentile_disc","onStatisticField":"SalePrice","outStatisticFieldName":"p","statisticParameters":{"value":0.5}}]"#

    /// A parameter set per flag, the metadata key it is published under (in advancedQueryCapabilities).
    static let probes: [(flag: String, parameters: [(String, String)])] = [
        ("supportsStatistics", [("outStatistics", count)]),
        ("supportsPercentileStatistics", [("outStatistics", percentile)]),
        ("supportsOrderBy", [("orderByFields", "SalePrice DESC")]),
        ("supportsDistinct", [("returnDistinctValues", "true"), ("outFields", "DocType")]),
        ("supportsReturningQueryExtent", [("returnExtentOnly", "true")]),
        ("supportsPaginationOnAggregatedQueries", [
            ("outStatistics", count), ("groupByFieldsForStatistics", "DocType"), ("resultOffset", "2"), ("resultRecordCount", "2"),
        ]),
    ]

    @Test("every flag on: published true, the parameter answers", arguments: probes.indices)
    func on(_ probe: Int) async throws {
        let (flag, parameters) = Self.probes[probe]
        try await TestSupport.withServer { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.parcelSales), [("f", "json")])
            #expect((metadata["advancedQueryCapabilities"] as? [String: Any])?[flag] as? Bool == true)
            let answer = try await client.query(server, .parcelSales, [("where", "1=1"), ("f", "json")] + parameters)
            #expect(answer.errorCode == nil, "\(flag): \(answer)")
        }
    }

    @Test("every flag off: published false, the parameter refused with an ArcGIS 400", arguments: probes.indices)
    func off(_ probe: Int) async throws {
        let (flag, parameters) = Self.probes[probe]
        var configuration = SampleServerConfiguration()
        try configuration.applyQueryOption("LA_County_Parcels/FeatureServer/1=\(flag)=false")
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.parcelSales), [("f", "json")])
            #expect((metadata["advancedQueryCapabilities"] as? [String: Any])?[flag] as? Bool == false)
            let answer = try await client.query(server, .parcelSales, [("where", "1=1"), ("f", "json")] + parameters)
            #expect(answer.errorCode == 400, "\(flag): \(answer)")
            #expect((answer.error?["message"] as? String)?.contains("not supported") == true)
            let other = try await client.json(server.layerURL(.parcels), [("f", "json")])
            #expect((other["advancedQueryCapabilities"] as? [String: Any])?[flag] as? Bool == true)  // per layer
        }
    }

    @Test("supportsOrderBy off also publishes supportsAdvancedQueries false; supportsStatistics off the top-level flag")
    func topLevelFlags() async throws {
        var configuration = SampleServerConfiguration()
        try configuration.applyQueryOption("supportsAdvancedQueries=false")
        configuration.queryOptions.supportsStatistics = false
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.counties), [("f", "json")])
            #expect(metadata["supportsAdvancedQueries"] as? Bool == false && metadata["supportsStatistics"] as? Bool == false)
            let grouped = try await client.query(server, .counties, [
                ("where", "1=1"), ("outStatistics", #"[{"statisticType":"sum","onStatisticField":"POP2000"}]"#), ("f", "json"),
            ])
            #expect(grouped.errorCode == 400)
        }
    }

    @Test("without pagination on aggregated queries, grouped results stop at maxRecordCount with exceededTransferLimit")
    func aggregatedCut() async throws {
        var configuration = SampleServerConfiguration()
        configuration.queryOptions.supportsPaginationOnAggregatedQueries = false
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let answer = try await client.query(server, .counties, [
                ("where", "1=1"), ("outStatistics", #"[{"statisticType":"count","onStatisticField":"OBJECTID","outStatisticFieldName":"n"}]"#),
                ("groupByFieldsForStatistics", "FIPS"), ("f", "json"),
            ])
            #expect(answer.features.count == 1000 && answer.exceededTransferLimit == true)
            let distinct = try await client.query(server, .counties, [
                ("where", "1=1"), ("outFields", "FIPS"), ("returnDistinctValues", "true"), ("f", "json"),
            ])
            #expect(distinct.features.count == 1000 && distinct.exceededTransferLimit == true)
        }
    }

    @Test("command-line spellings: unknown flags, quirks and layers are refused")
    func spellings() throws {
        var configuration = SampleServerConfiguration()
        #expect(throws: QueryOptionError.self) { try configuration.applyQueryOption("supportsNothing=false") }
        #expect(throws: QueryOptionError.self) { try configuration.applyQueryOption("supportsDistinct=maybe") }
        #expect(throws: QueryOptionError.self) { try configuration.applyQueryQuirk("USA/MapServer/9=shuffled-pages") }
        #expect(throws: QueryOptionError.self) { try configuration.applyQueryQuirk("lies") }
        try configuration.applyQueryQuirk("USA/MapServer/3=shuffled-pages")
        try configuration.applyQueryOption("supportsDistinct=FALSE")
        #expect(configuration.layerQueryOptions[.counties]?.quirks == [.shuffledPages])
        #expect(configuration.queryOptions.supportsDistinct == false)
        #expect(configuration.layerQueryOptions[.counties]?.supportsDistinct == true)  // copied before the server-wide change
        var ordered = SampleServerConfiguration()
        try ordered.applyQuerySpecs(options: ["USA/MapServer/3=supportsStatistics=false"], quirks: ["order-ignored"])
        #expect(ordered.layerQueryOptions[.counties]?.quirks == [.orderIgnored])
        #expect(ordered.layerQueryOptions[.counties]?.supportsStatistics == false && ordered.queryOptions.supportsStatistics)
    }
}
