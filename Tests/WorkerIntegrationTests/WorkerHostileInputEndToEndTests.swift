import FeatureQuerySupport
import Kafka
import RequestFuzzing
import Testing
import WorkerTestSupport
@testable import RequestContract

@testable import QueryWorker

/// Hostile messages through a live worker (the CI-sized version of Fuzz/run-request-fuzz-live.sh): every
/// message that must be answered is answered exactly once, every invalid one `rejected` with the code the
/// decoder gives it, a cancel not at all, and the worker keeps running.
@Suite struct WorkerHostileInputEndToEndTests {
    /// What a message must get, from the decoder the worker runs (no credentials file, default limits).
    enum Expected: Equatable {
        case anyOutcome(requestId: String)
        case rejected(code: String)
        case none
    }

    @Test func everyHostileMessageIsAnsweredOnceWithItsCode() async throws {
        let harness = try await WorkerHarness()
        let decoder = try ContractSupport.decoder()
        // Values cut at 8 KB: the embedded cluster keeps only the last ~5 MiB of a partition and would drop
        // a burst of megabyte messages before the worker read them (ContractHostileInputTests covers too_large).
        var generator = try HostileRequestGenerator(
            seeds: try ContractSeeds.load(), seed: 2_016, uniqueIdPrefix: "e2e", maxValueBytes: 8_000)
        var generated: [(message: HostileMessage, expected: Expected)] = []
        for _ in 0..<2_000 {
            let message = generator.next()
            switch decoder.decode(message.value, key: message.key, receivedAt: 1_000) {
            case .query(let request): generated.append((message, .anyOutcome(requestId: request.requestId)))
            case .cancel: generated.append((message, .none))
            case .rejected(let rejection): generated.append((message, .rejected(code: rejection.code.rawValue)))
            }
        }
        // A mutation can give two queries one requestId; copies of a requestId in flight together are answered
        // once (the contract's duplicate rule), so how many outcomes they get depends on timing: left out.
        var idCounts: [String: Int] = [:]
        for case (_, .anyOutcome(let id)) in generated { idCounts[id, default: 0] += 1 }
        generated.removeAll { if case .anyOutcome(let id) = $0.expected { idCounts[id, default: 0] > 1 } else { false } }
        let expected = generated.map(\.expected)
        let messages = generated.map {
            KafkaProducerMessage(topic: harness.settings.topics.requests, key: $0.message.key, value: $0.message.value)
        }
        var byOffset: [[Int64]: Int] = [:]
        for (index, report) in await harness.producer.send(messages).enumerated() {
            let delivered = try report.get()
            byOffset[[Int64(delivered.partition), delivered.offset]] = index
        }
        let outcomeCount = expected.filter { $0 != .none }.count
        let outcomes = try await harness.outcomes(outcomeCount, timeout: .seconds(180))

        var byRequestId: [String: [Int]] = [:]
        for (index, expectation) in expected.enumerated() {
            if case .anyOutcome(let id) = expectation { byRequestId[id, default: []].append(index) }
        }
        var answers = [[ParsedJSON]](repeating: [], count: expected.count)
        for outcome in outcomes {
            let index: Int?
            if case .number(let partition)? = outcome["source"]?["partition"], case .number(let offset)? = outcome["source"]?["offset"] {
                index = byOffset[[Int64(partition), Int64(offset)]]
            } else if case .string(let id)? = outcome["requestId"], let candidates = byRequestId[id] {
                index = candidates.first { answers[$0].isEmpty } ?? candidates.first
            } else {
                index = nil
            }
            guard let index else {
                Issue.record("an outcome matches no message: \(outcome.jsonText.prefix(500))")
                continue
            }
            answers[index].append(outcome)
        }
        var rejectedWithCode = 0
        for (index, expectation) in expected.enumerated() {
            let got = answers[index]
            switch expectation {
            case .none:
                #expect(got.isEmpty, "a cancel got an outcome: \(got.map(\.jsonText))")
            case .rejected(let code):
                #expect(got.count == 1, "message \(index) (\(code)): \(got.count) outcomes")
                #expect(got.first?.status == "rejected" && got.first?.errorCode == code,
                        "message \(index): expected rejected \(code), got \(got.first?.jsonText.prefix(300) ?? "nothing")")
                if got.first?.errorCode == code { rejectedWithCode += 1 }
            case .anyOutcome(let id):
                #expect(got.count == 1, "message \(index) (\(id)): \(got.count) outcomes")
            }
        }
        #expect(expected.count > 1_900, "few messages are left out")
        #expect(rejectedWithCode > 1_000, "most hostile messages are rejections with their code")
        try await harness.stop()
    }
}
