import FeatureQueryClient
import SampleFeatureServer

/// Contract 1.2's related records, as a pop-up asks for them: one parcel's assessment history, newest first,
/// and the counties of the most populous states (a MapServer's relationship, joined without related paging).
extension DemoPlan {
    /// How many assessments the parcel shown has (the most a parcel other than parcel 2 has).
    static let historyLength = 6
    static let statePopulation = 10_000_000

    static func relatedPhase(server: SampleFeatureServer) throws -> [DemoRequest] {
        let dataset = server.dataset
        let parcels = server.layerURL(.parcels)
        let (parcel, records) = try DemoRelatedTruth.assessmentHistory(dataset, wanted: historyLength)
        let history = DemoRequest(
            job: job(
                "related/assessment-history", targets: [.arcgis(url: parcels)],
                query: .init(
                    where: "OBJECTID = \(parcel)", result: .related, relationship: .name("Parcel_Assessments"),
                    relatedOutFields: ["OBJECTID", "TaxYear", "AssessedValue"],
                    relatedOrderBy: [Query.Order("TaxYear", descending: true)])),
            expected: .related(ExpectedRelated(
                url: parcels, relatedTable: server.layerURL(.parcelAssessments), groups: [(parcel, records)], ordered: true)))

        let states = server.layerURL(.states)
        let counties = try DemoRelatedTruth.countiesOfStates(dataset, population: statePopulation)
        guard !counties.isEmpty else { throw DemoPlanError(message: "no state has POP2000 over \(statePopulation)") }
        let populous = DemoRequest(
            job: job(
                "related/state-counties", targets: [.arcgis(url: states)],
                query: .init(
                    where: "POP2000 > \(statePopulation)", result: .related, relationship: .name("State_Counties"),
                    relatedOutFields: ["OBJECTID", "NAME"])),
            expected: .related(ExpectedRelated(
                url: states, relatedTable: server.layerURL(.counties), groups: counties, ordered: false)))
        return [history, populous]
    }
}
