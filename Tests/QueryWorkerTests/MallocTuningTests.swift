import QueryWorker
import Testing

/// The malloc settings `run` and `demo` apply (``MallocTuning``): applied on glibc, and left alone when the
/// operator set malloc tunables of their own.
@Suite struct MallocTuningTests {
    @Test func appliedWithoutTunablesOfTheOperators() {
        #expect(MallocTuning.apply(environment: [:]))
        #expect(MallocTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.rtld.optional_static_tls=2048"]))
    }

    @Test func anOperatorsMallocTunableWins() {
        #expect(!MallocTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.malloc.arena_max=2"]))
        #expect(!MallocTuning.apply(environment: ["GLIBC_TUNABLES": "glibc.rtld.nns=2:glibc.malloc.trim_threshold=1"]))
    }

    @Test func theTopPadKeepsAWholeThreadHeap() {
        // glibc deletes an emptied thread heap (64 MiB) only when more than the pad would stay free.
        #expect(MallocTuning.topPad == 64 << 20)
        #expect(MallocTuning.mmapThreshold < MallocTuning.trimThreshold)
    }
}
