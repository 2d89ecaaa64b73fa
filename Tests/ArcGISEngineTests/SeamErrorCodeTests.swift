import FeatureService
import Testing

/// The worker documents the codes failed layers carry from the seam's list alone (it does not see the
/// engines), so the list must hold each code once, spelled as the contract spells them.
@Suite("Error codes at the seam")
struct SeamErrorCodeTests {
    @Test func everyLayerCodeIsListedOnce() {
        let codes = FeatureServiceError.Code.layerCodes
        #expect(Set(codes).count == codes.count)
        #expect(codes.allSatisfy { $0.rawValue.allSatisfy { $0.isLowercase || $0 == "_" } })
        for code: FeatureServiceError.Code in [
            .invalidQuery, .invalidURL, .unsupportedLayer, .serviceError, .authentication, .forbidden, .notFound,
            .httpStatus, .malformedResponse, .missingObjectID, .limitExceeded, .transport, .geometryConversion,
            .tooManyLayers, .cancelled, .unsupportedTarget, .pagingCycle, .foreignNextLink, .pagingStalled, .crsMismatch,
            .authenticationRequired, .credentialRejected, .credentialExpired, .tokenServiceUnavailable,
        ] {
            #expect(codes.contains(code), "\(code) is not on the seam's list")
        }
    }

    @Test func theCredentialCodesAreOnTheSeamsList() {
        #expect(FeatureServiceError.Code.credentialCodes.allSatisfy(FeatureServiceError.Code.layerCodes.contains))
    }
}
