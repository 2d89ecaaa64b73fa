import FeatureService
import Synchronization
import Testing

@testable import QueryWorker

/// The progress throttle without clocks or Kafka: the first change is reported at once, changes within the
/// interval ride on one scheduled event, and nothing is emitted after the run finished.
@Suite struct ProgressReporterStateMachineTests {
    typealias Machine = ProgressReporter.StateMachine

    @Test func theFirstChangeIsEmittedAtOnce() {
        var machine = Machine(intervalMs: 1_000)
        #expect(machine.changed(nowMs: 5) == .emit)
        #expect(machine.state == .quiet(lastEmitMs: 5))
    }

    @Test func changesWithinTheIntervalScheduleOneEventAtItsEnd() {
        var machine = Machine(intervalMs: 1_000)
        _ = machine.changed(nowMs: 0)
        #expect(machine.changed(nowMs: 300) == .schedule(afterMs: 700))
        #expect(machine.changed(nowMs: 500) == .drop, "the scheduled event carries the newer counts")
        #expect(machine.changed(nowMs: 999) == .drop)
        #expect(machine.timerFired(nowMs: 1_000) == .emit)
        #expect(machine.state == .quiet(lastEmitMs: 1_000))
        #expect(machine.changed(nowMs: 1_100) == .schedule(afterMs: 900))
    }

    @Test func aChangeAfterAQuietIntervalIsEmittedAtOnce() {
        var machine = Machine(intervalMs: 1_000)
        _ = machine.changed(nowMs: 0)
        #expect(machine.changed(nowMs: 1_000) == .emit)
        #expect(machine.changed(nowMs: 5_000) == .emit)
    }

    @Test func nothingIsEmittedAfterTheRunFinished() {
        var machine = Machine(intervalMs: 1_000)
        _ = machine.changed(nowMs: 0)
        _ = machine.changed(nowMs: 10)
        let hadTimer = machine.finish()
        #expect(hadTimer, "a timer was set: the owner cancels it")
        #expect(machine.timerFired(nowMs: 1_000) == .drop, "a timer that fires anyway emits nothing")
        #expect(machine.changed(nowMs: 5_000) == .drop)
        let again = machine.finish()
        #expect(!again)
        var quiet = Machine(intervalMs: 1_000)
        let quietHadTimer = quiet.finish()
        #expect(!quietHadTimer)
        #expect(quiet.changed(nowMs: 0) == .drop, "a run that finished before its first page reports nothing")
    }

    @Test func aStrayTimerEmitsNothing() {
        var machine = Machine(intervalMs: 1_000)
        #expect(machine.timerFired(nowMs: 0) == .drop)
        _ = machine.changed(nowMs: 0)
        #expect(machine.timerFired(nowMs: 10) == .drop)
    }

    /// Against a model of the rule, over random sequences: events are at least the interval apart, a change is
    /// never left unreported for longer than the interval while the run goes on, and none follows `finish`.
    @Test(arguments: 0..<20)
    func randomSequencesKeepTheRule(_ seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let interval: Int64 = 1_000
        var machine = Machine(intervalMs: interval)
        var now: Int64 = 0
        var emits: [Int64] = []
        var timerDue: Int64?
        var finished = false
        for _ in 0..<200 {
            now += Int64.random(in: 0...400, using: &random)
            if let due = timerDue, due <= now {
                timerDue = nil
                if machine.timerFired(nowMs: due) == .emit { emits.append(due) }
            }
            if Int.random(in: 0..<150, using: &random) == 0 {
                _ = machine.finish()
                finished = true
            }
            switch machine.changed(nowMs: now) {
            case .emit:
                #expect(!finished)
                emits.append(now)
            case .schedule(let delay):
                #expect(!finished && timerDue == nil && delay > 0 && delay <= interval)
                timerDue = now + delay
            case .drop:
                #expect(finished || timerDue != nil)
            }
        }
        for (earlier, later) in zip(emits, emits.dropFirst()) {
            #expect(later - earlier >= interval, "\(emits)")
        }
    }
}

/// A generator for the random sequences above (a test's own: reproducible by seed).
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed &+ 0x9E37_79B9_7F4A_7C15 }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
