import FeatureQuerySupport
import Testing

/// The generator's sequences are pinned: the sample data, the injected faults and every seeded test case
/// depend on them, so a change here would silently change what all of those are.
@Suite("SplitMix64")
struct SplitMix64Tests {
    @Test("the published SplitMix64 sequence for seed 0, and a pinned one for seed 42")
    func sequences() {
        var zero = SplitMix64(seed: 0)
        #expect((0..<3).map { _ in zero.next() } == [0xE220_A839_7B1D_CDAF, 0x6E78_9E6A_A1B9_65F4, 0x06C4_5D18_8009_454F])
        var fortyTwo = SplitMix64(seed: 42)
        #expect((0..<3).map { _ in fortyTwo.next() } == [0xBDD7_3226_2FEB_6E95, 0x28EF_E333_B266_F103, 0x4752_6757_130F_9F52])
    }

    @Test("the hashes the sample data derives attributes from")
    func hashes() {
        #expect(SplitMix64.mix(12_345) == 0xF36C_F116_4265_DD51)
        #expect(SplitMix64.hash(7, 11) == 0x916B_CDA7_D372_1122)
    }

    @Test("derived draws stay in their ranges")
    func ranges() {
        var random = SplitMix64(seed: 1)
        for _ in 0..<1_000 {
            #expect((0..<1).contains(random.unit()))
            #expect((-2..<3).contains(random.uniform(-2, 3)))
            #expect((0..<7).contains(random.below(7)))
            #expect(random.logNormal(median: 10, sigma: 0.5) > 0)
        }
    }
}
