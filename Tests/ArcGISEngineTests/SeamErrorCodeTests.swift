import FeatureService
import Testing

import ArcGISEngine

/// The worker documents the codes failed layers carry from the seam's list alone (it does not see this
/// engine), so every code the ArcGIS engine can emit must be on that list, spelled the same.
@Suite("ArcGIS error codes at the seam")
struct SeamErrorCodeTests {
    @Test func everyEngineCodeIsOnTheSeamsList() {
        let seam = Set(FeatureServiceError.Code.layerCodes.map(\.rawValue))
        let missing = ArcGISError.Code.all.map(\.rawValue).filter { !seam.contains($0) }
        #expect(missing.isEmpty, "codes the seam does not list: \(missing)")
        #expect(Set(ArcGISError.Code.all).count == ArcGISError.Code.all.count)
    }

    @Test func theCredentialCodesAreTheSeamsCodes() {
        #expect(ArcGISError.Code.credentials.map(\.rawValue) == FeatureServiceError.Code.credentialCodes.map(\.rawValue))
    }

    @Test func aMappedErrorKeepsItsCode() {
        for code in ArcGISError.Code.all {
            let error = ArcGISError(code, "layer 0: failed", layer: "http://127.0.0.1/arcgis/rest/services/S/FeatureServer/0")
            #expect(FeatureServiceError(error).code.rawValue == code.rawValue)
        }
    }
}
