import FeatureGeometry
import Testing

@Test func moduleLoads() {
    #expect(FeatureGeometryModule.name == "FeatureGeometry")
}
