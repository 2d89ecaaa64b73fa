/// Runs a CPU-bound fuzz loop in a test process that also runs timing-sensitive suites, yielding every
/// `yieldEvery` rounds.
///
/// Why: Swift's cooperative pool has as many threads as cores (two on CI). Two synchronous loops of 20,000
/// decodes each held both threads for ~37 s in a debug build, and nothing else in the process ran meanwhile:
/// a worker's 300 ms connectivity check never ticked through a 12 s group join, and its test failed. A yield
/// puts the loop's task behind the jobs already waiting, so the loop shares the pool instead of owning it.
package func poolSharingRounds(
    _ rounds: Int, yieldEvery: Int = 100, _ body: (Int) throws -> Void
) async rethrows {
    for round in 0..<rounds {
        try body(round)
        if round % yieldEvery == yieldEvery - 1 { await Task.yield() }
    }
}
