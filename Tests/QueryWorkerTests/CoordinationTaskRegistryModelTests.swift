import FeatureQuerySupport
import Kafka
import Testing

@testable import QueryWorker

/// The shared SplitMix64, seeded as these tests always were, so a failing case names the seed that reproduces it.
extension SplitMix64 {
    static func scrambled(seed: UInt64) -> SplitMix64 { SplitMix64(seed: seed &* 0x9E37_79B9_7F4A_7C15 &+ 1) }
}

/// Drives ``TaskRegistry`` with random operations and checks, against a model kept by the test, that every
/// request received (and not a duplicate of one in flight) gets exactly one terminal answer once all runs
/// finish, and that no transition answers a request twice or one never received.
@Suite("Coordination: TaskRegistry randomized model")
struct CoordinationTaskRegistryModelTests {
    private struct Model {
        /// Request ids received and not yet answered (the registry must agree).
        var inFlight: Set<String> = []
        /// Receives that were not duplicates, per request id: each owes one answer.
        var owed: [String: Int] = [:]
        var answered: [String: Int] = [:]
        /// The task of each request id's latest receive.
        var taskOf: [String: String] = [:]
        var liveRuns: Set<RunID> = []
        var everyRun: [RunID] = []
        var duplicates = 0

        mutating func apply(_ answers: [TaskAnswer], cancelling runs: [RunID]) {
            for answer in answers {
                if case .superseded(let by) = answer.reason {
                    // Superseded by a later request of the same task.
                    #expect(by != answer.requestId && taskOf[by] == answer.request.taskId)
                }
            }
            apply(answers.map(\.request), cancelling: runs)
        }

        mutating func apply(_ requests: [AttachedRequest], cancelling runs: [RunID]) {
            for request in requests {
                #expect(inFlight.remove(request.requestId) != nil, "\(request.requestId) answered twice or never received")
                answered[request.requestId, default: 0] += 1
                #expect(answered[request.requestId, default: 0] <= owed[request.requestId, default: 0])
            }
            for run in runs { #expect(liveRuns.remove(run) != nil, "\(run) cancelled twice or never started") }
        }
    }

    @Test(arguments: 0..<24)
    func everyRequestIsAnsweredExactlyOnce(seed: Int) {
        var rng = SplitMix64.scrambled(seed: UInt64(seed))
        var registry = TaskRegistry<Int>()
        var model = Model()
        var nowMs: Int64 = 0
        var nextRequest = 0
        var offsets: [Int32: Int64] = [:]
        let shutdownAt = seed.isMultiple(of: 3) ? Int.random(in: 500..<1500, using: &rng) : Int.max

        for step in 0..<2000 {
            if step == shutdownAt {
                let cancellation = registry.cancelForShutdown()
                #expect(cancellation.answers.allSatisfy { $0.reason == .cancelled(.shutdown) })
                model.apply(cancellation.answers, cancelling: cancellation.runs)
                #expect(model.liveRuns.isEmpty && model.inFlight.isEmpty)
            }
            switch Int.random(in: 0..<100, using: &rng) {
            case 0..<45:
                // Mostly new ids; some repeat an earlier id (in flight or already answered).
                let requestId: String
                if nextRequest > 0, Int.random(in: 0..<5, using: &rng) == 0 {
                    requestId = "r\(Int.random(in: max(0, nextRequest - 30)..<nextRequest, using: &rng))"
                } else {
                    requestId = "r\(nextRequest)"
                    nextRequest += 1
                }
                let taskId = "t\(Int.random(in: 0..<6, using: &rng))"
                let partition = Int32.random(in: 0..<3, using: &rng)
                offsets[partition, default: 0] += 1
                let deadline: Int64? = Bool.random(using: &rng) ? nil : nowMs + Int64.random(in: -20...200, using: &rng)
                let wasInFlight = model.inFlight.contains(requestId)
                let action = registry.receive(
                    TaskRegistry<Int>.Request(
                        requestId: requestId,
                        taskId: taskId,
                        fingerprint: Int.random(in: 0..<3, using: &rng),
                        position: MessagePosition(
                            KafkaTopicPartition(topic: "q", partition: partition),
                            offset: offsets[partition, default: 0]
                        ),
                        deadlineMs: deadline
                    ),
                    nowMs: nowMs
                )
                if case .duplicate(let original) = action {
                    #expect(wasInFlight, "\(requestId) reported as a duplicate but not in flight")
                    #expect(original.requestId == requestId)
                    model.duplicates += 1
                    continue
                }
                #expect(!wasInFlight, "\(requestId) in flight but not reported as a duplicate")
                model.owed[requestId, default: 0] += 1
                model.inFlight.insert(requestId)
                model.taskOf[requestId] = taskId
                let cancellation = action.cancellation
                model.apply(cancellation.answers, cancelling: cancellation.runs)
                if let run = action.runToStart {
                    #expect(!model.everyRun.contains(run), "\(run) reused")
                    model.liveRuns.insert(run)
                    model.everyRun.append(run)
                }
            case 45..<62:
                guard let run = model.everyRun.randomElement(using: &rng) else { continue }
                let wasLive = model.liveRuns.contains(run)
                let answered = registry.finished(run)
                #expect(wasLive != answered.isEmpty, "a live run answers its requests; a dead one nothing")
                model.apply(answered, cancelling: wasLive ? [run] : [])
            case 62..<70:
                let cancellation = registry.cancel(taskId: "t\(Int.random(in: 0..<6, using: &rng))")
                model.apply(cancellation.answers, cancelling: cancellation.runs)
            case 70..<74:
                guard let run = model.everyRun.randomElement(using: &rng) else { continue }
                let cancellation = registry.expire(run)
                model.apply(cancellation.answers, cancelling: cancellation.runs)
            case 74..<84:
                nowMs += Int64.random(in: 0...40, using: &rng)
                let before = registry.nextDeadlineMs
                let cancellation = registry.expireDue(nowMs: nowMs)
                #expect(cancellation.answers.isEmpty == (before.map { $0 > nowMs } ?? true))
                #expect(cancellation.answers.allSatisfy { $0.reason == .expired })
                model.apply(cancellation.answers, cancelling: cancellation.runs)
            case 84..<87:
                let revoked = Set((0..<3).filter { _ in Bool.random(using: &rng) }.map {
                    KafkaTopicPartition(topic: "q", partition: Int32($0))
                })
                let cancellation = registry.cancel(partitions: revoked)
                #expect(cancellation.answers.allSatisfy { revoked.contains($0.request.position.partition) })
                model.apply(cancellation.answers, cancelling: cancellation.runs)
            default:
                nowMs += Int64.random(in: 0...10, using: &rng)
            }
            #expect(registry.runCount == model.liveRuns.count)
        }

        // Let every run finish: afterwards each request has had exactly one answer.
        for run in model.liveRuns {
            model.apply(registry.finished(run), cancelling: [run])
        }
        #expect(registry.runCount == 0 && model.inFlight.isEmpty)
        #expect(model.answered == model.owed)
        #expect(model.owed.values.reduce(0, +) > 500)
    }
}
