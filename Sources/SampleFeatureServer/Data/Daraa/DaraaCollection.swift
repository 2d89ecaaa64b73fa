import FeatureGeometry

/// The collections of the Daraa look-alike: named as in the seed's ldproxy service (OpenStreetMap data of
/// Daraa, Syria, in the NGA Topographic Data Store schema), one geometry kind each, with the feature codes a
/// collection of that theme holds and about as many features as the real ones (TransportationGroundCrv
/// about 3,700; a little over 7,000 in all).
package enum DaraaCollection: String, CaseIterable, Sendable, Hashable {
    case aeronauticCrv = "AeronauticCrv"
    case aeronauticPnt = "AeronauticPnt"
    case agriculturePnt = "AgriculturePnt"
    case agricultureSrf = "AgricultureSrf"
    case culturePnt = "CulturePnt"
    case cultureSrf = "CultureSrf"
    case hydrographyCrv = "HydrographyCrv"
    case settlementSrf = "SettlementSrf"
    case transportationGroundCrv = "TransportationGroundCrv"
    case transportationGroundPnt = "TransportationGroundPnt"
    case utilityInfrastructurePnt = "UtilityInfrastructurePnt"
    case vegetationSrf = "VegetationSrf"

    /// The collection id (as in the seed service).
    package var id: String { rawValue }

    /// How many features the collection holds.
    package var featureCount: Int {
        switch self {
        case .aeronauticCrv: 24
        case .aeronauticPnt: 18
        case .agriculturePnt: 160
        case .agricultureSrf: 620
        case .culturePnt: 430
        case .cultureSrf: 310
        case .hydrographyCrv: 260
        case .settlementSrf: 90
        case .transportationGroundCrv: 3_712
        case .transportationGroundPnt: 210
        case .utilityInfrastructurePnt: 140
        case .vegetationSrf: 540
        }
    }

    /// The geometry kind: points, curves (polylines) or surfaces (polygons).
    var geometryType: GeometryType {
        switch self {
        case .aeronauticPnt, .agriculturePnt, .culturePnt, .transportationGroundPnt, .utilityInfrastructurePnt: .point
        case .aeronauticCrv, .hydrographyCrv, .transportationGroundCrv: .polyline
        case .agricultureSrf, .cultureSrf, .settlementSrf, .vegetationSrf: .polygon
        }
    }

    /// The TDS feature codes the collection draws from, with their names.
    var featureCodes: [(code: String, name: String)] {
        switch self {
        case .aeronauticCrv: [("GB055", "Runway"), ("GB075", "Taxiway")]
        case .aeronauticPnt: [("GB040", "Launch Pad"), ("GB030", "Helipad")]
        case .agriculturePnt: [("AJ050", "Windmill"), ("AJ110", "Greenhouse"), ("BI020", "Water Tower")]
        case .agricultureSrf: [("EA010", "Crop Land"), ("EA040", "Orchard"), ("EA050", "Vineyard")]
        case .culturePnt: [("AL013", "Building"), ("AL012", "Archeological Site"), ("AL030", "Cemetery"), ("AL099", "Hut")]
        case .cultureSrf: [("AL013", "Building"), ("AL030", "Cemetery"), ("AL170", "Public Square")]
        case .hydrographyCrv: [("BH140", "River"), ("BH020", "Canal"), ("BH030", "Ditch")]
        case .settlementSrf: [("AL020", "Built-Up Area"), ("AL105", "Settlement")]
        case .transportationGroundCrv: [("AP030", "Road"), ("AP050", "Trail"), ("AN010", "Railway")]
        case .transportationGroundPnt: [("AQ040", "Bridge"), ("AQ065", "Culvert"), ("AP020", "Road Interchange")]
        case .utilityInfrastructurePnt: [("AT042", "Pylon"), ("AD010", "Electric Power Station"), ("AT080", "Communication Tower")]
        case .vegetationSrf: [("EC015", "Forest"), ("EB010", "Grassland"), ("EB020", "Thicket")]
        }
    }

    /// The collection's title, e.g. "Transportation Ground (Curves)".
    var title: String {
        let kind = geometryType == .point ? "Points" : (geometryType == .polyline ? "Curves" : "Surfaces")
        var theme = ""
        for character in rawValue.dropLast(3) {
            if character.isUppercase, !theme.isEmpty { theme.append(" ") }
            theme.append(character)
        }
        return "\(theme) (\(kind))"
    }
}
