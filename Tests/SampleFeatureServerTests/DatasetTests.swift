import FeatureGeometry
import SampleFeatureServer
import Testing

@Suite("Generated dataset")
struct DatasetTests {
    @Test("the same seed gives the same data; another seed other data")
    func determinism() async throws {
        let first = try SampleDataset(parcelCount: 20_000, seed: 42)
        let second = try SampleDataset(parcelCount: 20_000, seed: 42)
        let other = try SampleDataset(parcelCount: 20_000, seed: 43)
        let extent = SampleDataset.seedExtent
        for clause in ["UseType = 'Residential'", "TaxRateArea = 10853", "Roll_LandValue > 1000000"] {
            let a = try first.groundTruthObjectIDs(.parcels, where: clause, envelope: extent)
            let b = try second.groundTruthObjectIDs(.parcels, where: clause, envelope: extent)
            let c = try other.groundTruthObjectIDs(.parcels, where: clause, envelope: extent)
            #expect(a == b)
            #expect(!a.isEmpty)
            #expect(a != c)
        }
        #expect(try first.groundTruthObjectIDs(.cities, where: "POP2000 > 50000") == second.groundTruthObjectIDs(.cities, where: "POP2000 > 50000"))
        #expect(first.featureCount(.counties) == second.featureCount(.counties))
    }

    @Test("the seed extent holds about 3% of the parcels, with the seven clauses well represented")
    func seedExtentContents() throws {
        let dataset = try TestSupport.dataset()
        let extent = SampleDataset.seedExtent
        let inside = try dataset.groundTruthObjectIDs(.parcels, envelope: extent).count
        #expect(inside > dataset.parcelCount / 50 && inside < dataset.parcelCount / 20)
        func count(_ clause: String) throws -> Int { try dataset.groundTruthObjectIDs(.parcels, where: clause, envelope: extent).count }
        // More than one 2,000-feature page for the big clauses even at this reduced size.
        #expect(try count("UseType = 'Residential'") > 2_000)
        #expect(try count("Roll_LandValue > 1000000") > 2_000)
        #expect(try count("Roll_LandValue < 1000000") > 2_000)
        #expect(try count("TaxRateArea = 10853") > inside / 6)
        #expect(try count("TaxRateArea = 10860") > inside / 6)
        #expect(try count("UseType = 'Government'") > 50)
        #expect(try count("UseType = 'Irrigated Farm'") > 50)
    }

    @Test("layer sizes: legacy subset, about 3,500 cities, 49 states, about 3,100 counties, 300 highways")
    func layerSizes() throws {
        let dataset = try TestSupport.dataset()
        #expect(dataset.featureCount(.parcels) == TestSupport.parcelCount)
        let legacy = dataset.featureCount(.legacyParcels)
        #expect(legacy >= 20_000 && legacy <= 50_000)
        #expect(dataset.objectIDs(.legacyParcels).allSatisfy { ($0 - 1) % dataset.legacyStride == 0 })
        #expect((3_000...4_000).contains(dataset.featureCount(.cities)))
        #expect(dataset.featureCount(.states) == 49)
        #expect((2_900...3_300).contains(dataset.featureCount(.counties)))
        #expect(dataset.featureCount(.highways) == 300)
        #expect(dataset.featureCount(.elevation) == 0)
        #expect(dataset.spatialReference(.parcels).isWebMercator)
        #expect(dataset.spatialReference(.cities).isWGS84)
    }

    @Test("parcels are stored compactly (under 50 bytes each with their index)")
    func compactStorage() throws {
        let dataset = try TestSupport.dataset()
        #expect(dataset.parcelMemoryFootprint < 50 * dataset.parcelCount)
    }

    @Test("the constants: viewpoint and seed extent in Web Mercator around it")
    func constants() {
        let extent = SampleDataset.seedExtent
        #expect(extent.spatialReference?.wkid == 102100)
        #expect(extent.contains(SampleDataset.viewpointWebMercator.position))
        #expect(abs(extent.width - 7_200) < 1 && abs(extent.height - 4_800) < 1)
        #expect(SampleDataset.viewpoint.y == 34.03 && SampleDataset.viewpoint.x == -118.805)
    }
}
