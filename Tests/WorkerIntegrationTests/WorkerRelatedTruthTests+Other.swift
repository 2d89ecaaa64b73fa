import FeatureQuerySupport
import PygeoapiFixture
import QueryWorker
import SampleFeatureServer
import Testing
import WorkerTestSupport

/// A one-to-one relationship named by id, a MapServer's states to their counties with geometry, attachments
/// with `queryAttachments` and without it against each feature's own attachment resource, and the layers
/// that must fail.
@Suite("Worker related tables and attachments against their sources", .enabled(if: PygeoapiSampleService.isAvailable))
struct WorkerRelatedOtherTruthTests {
    static let population = 5_000_000

    @Test func ownersAndCountiesAgreeWithSQL() async throws {
        let harness = try await WorkerHarness { settings in settings.limits.maxResultBytes = WorkerRelatedTruthTests.partBytes }
        let truth = try await RelatedTruth.shared(for: harness)
        try await harness.send("owners", WorkerHarness.request(
            "owners", url: harness.url(.parcels), query: WorkerRelatedTruthTests.relatedQuery(originLimit: 3_000, relationship: #"{"id":9}"#)))
        try await harness.send("counties", WorkerHarness.request(
            "counties", url: harness.url(.states),
            query: #"{"where":"POP2000 > \#(Self.population)","result":"related","relationship":{"name":"State_Counties"},"returnGeometry":true}"#))
        let outcomes = try await harness.wholeOutcomes(["owners", "counties"])

        let owners = try await truth.pairs("""
            SELECT p."OBJECTID" AS origin, o."OBJECTID" AS related FROM parcels p JOIN parcel_owners o ON o."OwnerAPN" = p."APN"
            WHERE p."OBJECTID" <= 3000 ORDER BY 1, 2
            """)
        try #require(owners.count > 2_000 && owners.count < 3_000, "nine parcels in ten have an owner: \(owners.count)")
        let ownersLayer = outcomes["owners"]?.outcome.firstLayer
        #expect(outcomes["owners"]?.outcome.status == "succeeded", "\(String(describing: outcomes["owners"]?.outcome["error"]))")
        #expect(
            ownersLayer?.relatedPairs == owners,
            "owners: first difference \(WorkerRelatedTruthTests.firstDifference(ownersLayer?.relatedPairs ?? [], owners))")
        #expect(ownersLayer?.relatedGroups.allSatisfy { $0.records.count == 1 && $0.count == 1 } == true, "one owner a parcel")
        #expect(ownersLayer?.integer("count") == owners.count && ownersLayer?["complete"] == .bool(true))

        let counties = try await truth.pairs("""
            SELECT s."OBJECTID" AS origin, c."OBJECTID" AS related FROM states s JOIN counties c ON c."STATE_NAME" = s."STATE_NAME"
            WHERE s."POP2000" > \(Self.population) ORDER BY 1, 2
            """)
        try #require(Set(counties.map(\.origin)).count > 3, "several states over \(Self.population)")
        let countiesLayer = outcomes["counties"]?.outcome.firstLayer
        #expect(outcomes["counties"]?.outcome.status == "succeeded", "\(String(describing: outcomes["counties"]?.outcome["error"]))")
        #expect(countiesLayer?.relatedPairs == counties,
                "counties: first difference \(WorkerRelatedTruthTests.firstDifference(countiesLayer?.relatedPairs ?? [], counties))")
        #expect(countiesLayer?.integer("count") == counties.count && countiesLayer?["complete"] == .bool(true))
        let records = countiesLayer?.relatedGroups.flatMap(\.records) ?? []
        #expect(!records.isEmpty && records.allSatisfy { $0["geometry"]?.text("type") != nil }, "every county has its geometry")
        try await harness.stop()
    }

    /// Parcels 1…500 (parcel 10 has 1,200 attachments, more than a transfer) and 1…9: by queryAttachments
    /// where the layer offers it, else from each feature's resource; all against the resources read directly.
    @Test func attachmentsAgreeWithEachFeaturesResource() async throws {
        let harness = try await WorkerHarness { settings in settings.limits.maxResultBytes = WorkerRelatedTruthTests.partBytes }
        let off = try await FeatureTableRequests.variantServer(
            harness.dataset, options: ["\(WorkerRelatedTruthTests.parcelsPath)=supportsQueryAttachments=false"])
        let requests: [(id: String, url: String, last: Int, by: String)] = [
            // With queryAttachments, parcel 10's answer passes the transfer limit even alone: the worker reads
            // it from the feature's resource, and says so; parcels 1…9 the service lists by itself.
            ("attachments-on", harness.url(.parcels), 500, "worker"), ("attachments-off", off.layerURL(.parcels), 500, "worker"),
            ("attachments-first-nine", harness.url(.parcels), 9, "server"),
        ]
        for request in requests {
            let query = #"{"where":"OBJECTID <= \#(request.last)","result":"attachments"}"#
            try await harness.send(request.id, WorkerHarness.request(request.id, url: request.url, query: query))
        }
        let outcomes = try await harness.wholeOutcomes(Set(requests.map(\.id)))
        let expected = try await AttachmentTruth.ids(harness.server, .parcels, objectIDs: 1...500)
        try #require((expected[10]?.count ?? 0) == 1_200, "parcel 10 has 1,200 attachments")
        try #require(expected.keys.contains { $0 < 10 }, "some of parcels 1…9 have attachments")

        for (id, _, last, by) in requests {
            let expected = expected.filter { $0.key <= last }
            let total = expected.values.reduce(0) { $0 + $1.count }
            let (outcome, parts) = try #require(outcomes[id], "\(id) answered")
            let layer = outcome.firstLayer
            #expect(outcome.status == "succeeded", "\(id): \(String(describing: outcome["error"]))")
            #expect(last < 10 || parts > 1, "\(id): \(total) attachments cross several parts")
            let groups = layer?.elements("attachments") ?? []
            let objectIDs = groups.compactMap { $0.integer("objectId") }
            #expect(objectIDs == expected.keys.sorted(), "\(id): the features with attachments, in object id order")
            var got: [Int: [Int]] = [:]
            for group in groups {
                got[group.integer("objectId") ?? -1] = (group.elements("attachments") ?? []).map { $0.integer("id") ?? -1 }
            }
            #expect(got == expected, "\(id): attachment ids per feature as the resources list them")
            let urls = groups.flatMap { ($0.elements("attachments") ?? []).map { $0.text("url") ?? "" } }
            #expect(urls.allSatisfy { $0.hasPrefix("http") && !$0.lowercased().contains("token") }, "\(id): urls without a token")
            #expect(layer?.integer("count") == total && layer?["complete"] == .bool(true), "\(id)")
            let site = layer?.text("attachmentsBy")
            #expect(site == by, "\(id): listed by \(String(describing: site))")
        }
        await off.shutdown()
        try await harness.stop()
    }

    @Test func anUnknownRelationshipAndAnOGCCollectionFailTheLayer() async throws {
        let harness = try await WorkerHarness()
        try await harness.send("unknown", WorkerHarness.request(
            "unknown", url: harness.url(.parcels),
            query: WorkerRelatedTruthTests.relatedQuery(originLimit: 10, relationship: #"{"name":"Parcel_Inspections"}"#)))
        let collection = try WorkerHarness.collection(.parcels)
        try await harness.send("ogc", WorkerHarness.ogcRequest(
            "ogc", landing: harness.server.ogcURL, collection: collection, query: WorkerRelatedTruthTests.relatedQuery(originLimit: 10)))
        let outcomes = try await harness.wholeOutcomes(["unknown", "ogc"])

        let unknown = outcomes["unknown"]?.outcome.onlyLayerError
        #expect(unknown?.text("code") == "invalid_query", "\(String(describing: outcomes["unknown"]?.outcome))")
        let message = unknown?.text("message") ?? ""
        #expect(message.contains("Parcel_Assessments") && message.contains("Parcel_Owner"), "the message lists the relationships: \(message)")
        let ogc = outcomes["ogc"]?.outcome.onlyLayerError
        #expect(ogc?.text("code") == "unsupported_query", "\(String(describing: outcomes["ogc"]?.outcome))")
        try await harness.stop()
    }
}
