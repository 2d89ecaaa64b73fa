/// A relationship class between two layers or tables of one service, as both ends publish it under
/// `relationships` and `queryRelatedRecords` follows it. Ids are deliberately not 0 and not positional (real
/// deployments differ): clients must resolve a relationship by name or related table.
struct SampleRelationship: Sendable, Hashable {
    let id: Int
    let name: String
    let origin: SampleLayer
    let destination: SampleLayer
    /// `esriRelCardinalityOneToOne` or `esriRelCardinalityOneToMany`.
    let cardinality: String
    /// The origin's primary key and the destination's foreign key (equal values relate rows).
    let originKey: String
    let destinationKey: String

    static let all: [SampleRelationship] = [
        SampleRelationship(
            id: 4, name: "Parcel_Assessments", origin: .parcels, destination: .parcelAssessments,
            cardinality: "esriRelCardinalityOneToMany", originKey: "APN", destinationKey: "ParcelAPN"),
        SampleRelationship(
            id: 9, name: "Parcel_Owner", origin: .parcels, destination: .parcelOwners,
            cardinality: "esriRelCardinalityOneToOne", originKey: "APN", destinationKey: "OwnerAPN"),
        SampleRelationship(
            id: 2, name: "State_Counties", origin: .states, destination: .counties,
            cardinality: "esriRelCardinalityOneToMany", originKey: "STATE_NAME", destinationKey: "STATE_NAME"),
    ]

    /// The relationships `layer` takes part in, in publication order.
    static func of(_ layer: SampleLayer) -> [SampleRelationship] {
        all.filter { $0.origin == layer || $0.destination == layer }
    }

    /// The relationship with `id` that `layer` takes part in.
    static func find(_ id: Int, on layer: SampleLayer) -> SampleRelationship? {
        of(layer).first { $0.id == id }
    }

    /// The other end, seen from `layer`.
    func related(from layer: SampleLayer) -> SampleLayer { layer == origin ? destination : origin }

    /// `esriRelRoleOrigin` or `esriRelRoleDestination`: `layer`'s role.
    func role(of layer: SampleLayer) -> String { layer == origin ? "esriRelRoleOrigin" : "esriRelRoleDestination" }

    /// `layer`'s own key field.
    func keyField(of layer: SampleLayer) -> String { layer == origin ? originKey : destinationKey }
}
