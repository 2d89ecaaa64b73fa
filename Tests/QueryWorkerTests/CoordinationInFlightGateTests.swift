import FeatureQuerySupport
import Testing

@testable import QueryWorker

@Suite("Coordination: InFlightGate")
struct CoordinationInFlightGateTests {
    @Test func pausesAtTheLimitAndResumesAtTheLowMarkOnceEach() {
        var gate = InFlightGate(maxInFlight: 8)
        #expect(gate.lowMark == 6)
        for _ in 0..<7 { #expect(gate.admitted() == .none) }
        #expect(gate.admitted() == .pause)
        #expect(gate.isPaused && gate.inFlight == 8)
        // Read-ahead still arrives while paused: counted, no second pause.
        #expect(gate.admitted() == .none)
        #expect(gate.completed() == .none)  // 8
        #expect(gate.completed() == .none)  // 7
        #expect(gate.completed() == .resume)  // 6
        #expect(!gate.isPaused)
        #expect(gate.completed() == .none)  // 5
        #expect(gate.admitted() == .none)  // 6
        #expect(gate.admitted() == .none)  // 7: between the marks, running stays running
        #expect(gate.admitted() == .pause)  // 8
        #expect(gate.completed() == .none)  // 7: between the marks, paused stays paused
        #expect(gate.isPaused)
    }

    @Test func aLimitOfOneResumesWhenNothingIsInFlight() {
        var gate = InFlightGate(maxInFlight: 1)
        #expect(gate.lowMark == 0)
        #expect(gate.admitted() == .pause)
        #expect(gate.completed() == .resume)
    }

    @Test func marksAreClampedSoThatEveryPauseCanBeFollowedByAResume() {
        #expect(InFlightGate(maxInFlight: 0).maxInFlight == 1)
        #expect(InFlightGate(maxInFlight: 10, lowMark: 10).lowMark == 9)
        #expect(InFlightGate(maxInFlight: 10, lowMark: 50).lowMark == 9)
        #expect(InFlightGate(maxInFlight: 10, lowMark: -3).lowMark == 0)
        #expect(InFlightGate(maxInFlight: 10, lowMark: 2).lowMark == 2)
        #expect(InFlightGate(maxInFlight: 100).lowMark == 75)
    }

    @Test func theCountNeverGoesBelowZero() {
        var gate = InFlightGate(maxInFlight: 4)
        #expect(gate.completed() == .none)
        #expect(gate.inFlight == 0)
        #expect(gate.admitted(3) == .none)
        #expect(gate.completed(10) == .none)
        #expect(gate.inFlight == 0)
    }

    @Test func settingTheCountCrossesBothMarksAtOnce() {
        var gate = InFlightGate(maxInFlight: 10, lowMark: 5)
        #expect(gate.update(inFlight: 25) == .pause)
        #expect(gate.update(inFlight: 6) == .none)
        #expect(gate.update(inFlight: 0) == .resume)
        #expect(gate.update(inFlight: 0) == .none)
    }

    /// A random walk: actions alternate pause, resume, pause…; a pause happens exactly when the count
    /// reaches the limit while running, a resume exactly when it reaches the low mark while paused.
    @Test(arguments: 0..<10)
    func aRandomWalkAlternatesPausesAndResumes(seed: Int) {
        var rng = SplitMix64.scrambled(seed: UInt64(seed) &+ 3000)
        let limit = Int.random(in: 1...50, using: &rng)
        var gate = InFlightGate(maxInFlight: limit)
        var paused = false
        var count = 0
        var edges = 0
        for _ in 0..<5000 {
            let up = Bool.random(using: &rng)
            let action = up ? gate.admitted() : gate.completed()
            count = up ? count + 1 : max(0, count - 1)
            #expect(gate.inFlight == count)
            switch action {
            case .pause:
                #expect(!paused && count >= limit)
                paused = true
                edges += 1
            case .resume:
                #expect(paused && count <= gate.lowMark)
                paused = false
                edges += 1
            case .none:
                #expect(paused ? count > gate.lowMark : count < limit)
            }
            #expect(gate.isPaused == paused)
        }
        #expect(edges > 0)
    }
}

extension InFlightGate {
    /// `count` requests were received (the worker sets the count outright with `update(inFlight:)`).
    mutating func admitted(_ count: Int = 1) -> Action {
        update(inFlight: inFlight + max(0, count))
    }

    /// `count` requests are done. Never goes below zero.
    mutating func completed(_ count: Int = 1) -> Action {
        update(inFlight: inFlight - max(0, count))
    }
}
