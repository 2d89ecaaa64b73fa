import FeatureGeometry
import FeatureQuerySupport
import Foundation
import RequestFuzzing
import Testing

@testable import QueryWorker
import SampleFeatureServer
import WorkerTestSupport
@testable import RequestContract

/// Random mutations of valid messages: the decoder never crashes, always answers query, cancel or a
/// well-formed rejection, and never accepts what the schema refuses.
@Suite struct ContractFuzzTests {
    static func seeds() throws -> [[UInt8]] {
        try (ContractSupport.examples(prefix: "request") + ContractSupport.examples(prefix: "cancel")).map(\.bytes)
    }

    /// The answer is one of the three, and a rejection is well formed (``RequestFuzzOracle``).
    static func check(_ message: IncomingMessage, input: [UInt8]) {
        let problems = RequestFuzzOracle.problems(message)
        #expect(problems.isEmpty, "\(problems) for \(String(decoding: input, as: UTF8.self).prefix(2_000))")
    }

    @Test func byteMutationsNeverCrashTheDecoder() async throws {
        let decoder = try ContractSupport.decoder()
        let seeds = try Self.seeds()
        var random = SplitMix64(seed: 0xC0FFEE)
        var counts = [0, 0, 0]
        await poolSharingRounds(20_000) { _ in
            let input = ByteMutations.mutate(seeds[Int.random(in: 0..<seeds.count, using: &random)], &random)
            let message = decoder.decode(input, key: nil, receivedAt: 1_000)
            Self.check(message, input: input)
            switch message {
            case .query: counts[0] += 1
            case .cancel: counts[1] += 1
            case .rejected: counts[2] += 1
            }
        }
        #expect(counts[2] > 10_000, "\(counts)")
        #expect(counts[0] > 100, "some mutations keep the request valid: \(counts)")
    }

    @Test func valueMutationsNeverCrashTheDecoder() async throws {
        let decoder = try ContractSupport.decoder()
        let seeds = try Self.seeds().map { try ParsedJSON(parsing: $0) }
        var random = SplitMix64(seed: 7)
        await poolSharingRounds(20_000) { _ in
            let input = ContractSupport.json(ValueMutations.mutate(seeds[Int.random(in: 0..<seeds.count, using: &random)], &random))
            Self.check(decoder.decode(input, key: nil, receivedAt: 1_000), input: input)
        }
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func theDecoderAcceptsNothingTheSchemaRefuses() async throws {
        let decoder = try ContractSupport.decoder()
        let seeds = try Self.seeds().map { try ParsedJSON(parsing: $0) }
        var random = SplitMix64(seed: 2025)
        var documents: [(schema: String, bytes: [UInt8])] = []
        var answers: [IncomingMessage] = []
        for index in 0..<1_000 {
            var value = seeds[index % seeds.count]
            for _ in 0..<Int.random(in: 1...2, using: &random) { value = ValueMutations.mutate(value, &random) }
            let bytes = ContractSupport.json(value)
            documents.append((value["cancel"] == nil ? "request" : "cancel", bytes))
            answers.append(decoder.decode(bytes, key: nil, receivedAt: 1_000))
        }
        let accepted = try await ContractSupport.expectSchemaAgreement(documents, answers)
        #expect(accepted > 50, "enough mutations stay valid to test agreement")
    }
}
