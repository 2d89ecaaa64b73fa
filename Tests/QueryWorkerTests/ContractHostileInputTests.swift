import FeatureQuerySupport
import Foundation
import RequestFuzzing
import Testing

@testable import QueryWorker
import FeatureGeometry
import WorkerTestSupport
@testable import RequestContract

/// The shared hostile-message generator (Tests/RequestFuzzing) at CI scale: the decoder answers every
/// message well, the generator repeats itself from a seed, and the schema agrees with what was accepted.
/// Fuzz/run-request-fuzz.sh runs the same generator a million times.
@Suite struct ContractHostileInputTests {
    static func generator(seed: UInt64, prefix: String? = nil) throws -> HostileRequestGenerator {
        try HostileRequestGenerator(seeds: try ContractSeeds.load(), seed: seed, uniqueIdPrefix: prefix)
    }

    @Test func theOracleKnowsEveryRejectionCodeOfTheDecoder() {
        #expect(RequestFuzzOracle.rejectionCodes == Set(RejectionCase.rejectionCodes.map(\.rawValue)))
        #expect(RequestFuzzOracle.workerOnlyCodes.isSubset(of: RequestFuzzOracle.rejectionCodes))
    }

    @Test func oneSeedGivesTheSameMessages() throws {
        var first = try Self.generator(seed: 99, prefix: "fz")
        var second = try Self.generator(seed: 99, prefix: "fz")
        var other = try Self.generator(seed: 100, prefix: "fz")
        var differences = 0
        for _ in 0..<500 {
            let message = first.next()
            #expect(message == second.next())
            if message != other.next() { differences += 1 }
        }
        #expect(differences > 400)
    }

    @Test func uniqueIdsNameEachMessage() throws {
        var generator = try Self.generator(seed: 5, prefix: "live")
        let valid = (0..<400).map { _ in generator.next() }.filter { $0.kind == .valid }
        #expect(!valid.isEmpty)
        for message in valid {
            let document = try ParsedJSON(parsing: try #require(message.value))
            let id = try #require(message.intendedRequestId)
            #expect(document["requestId"] == .string(id) || document["taskId"] == .string(id))
        }
    }

    @Test func hostileMessagesGetAWellFormedAnswer() async throws {
        let decoder = try ContractSupport.decoder()
        var generator = try Self.generator(seed: 0x5EED)
        var byKind: [HostileMessage.Kind: [String: Int]] = [:]
        await poolSharingRounds(10_000) { _ in
            let message = generator.next()
            let answer = decoder.decode(message.value, key: message.key, receivedAt: 1_000)
            let label = RequestFuzzOracle.label(answer)
            byKind[message.kind, default: [:]][label, default: 0] += 1
            let problems = RequestFuzzOracle.problems(answer)
            #expect(problems.isEmpty, "\(problems): \(message.kind) \(message.value.map { String(decoding: $0.prefix(500), as: UTF8.self) } ?? "tombstone")")
            if let value = message.value, String(validating: value, as: UTF8.self) == nil {
                #expect(label == "invalid_json" || label == "too_large", "not UTF-8 but \(label)")
            }
            if let value = message.value, value.count > 1_000_000 { #expect(label == "too_large") }
            if message.value == nil { #expect(label == "invalid_json") }
        }
        #expect(Set(byKind.keys) == Set(HostileMessage.Kind.allCases), "every kind is generated")
        for kind in [HostileMessage.Kind.wrongShape, .randomBytes, .deepNesting] {
            let labels = byKind[kind] ?? [:]
            #expect(labels["query"] == nil && labels["cancel"] == nil, "\(kind) accepted: \(labels)")
        }
        #expect((byKind[.valid]?["query"] ?? 0) > 0 && (byKind[.valid]?["cancel"] ?? 0) > 0)
        #expect((byKind[.deepNesting]?["invalid_json"] ?? 0) > 0, "nesting past the limit is invalid_json")
        let codes = Set(byKind.values.flatMap(\.keys)).subtracting(["query", "cancel"])
        #expect(codes.count >= 10, "the messages reach many of the decoder's checks: \(codes.sorted())")
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func theSchemaAgreesWithWhatTheDecoderAccepts() async throws {
        let decoder = try ContractSupport.decoder()
        var generator = try Self.generator(seed: 31)
        var documents: [(schema: String, bytes: [UInt8])] = []
        var answers: [IncomingMessage] = []
        while documents.count < 1_500 {
            let message = generator.next()
            guard let value = message.value, value.count < 100_000,
                case .object(let members)? = try? ParsedJSON(parsing: value) else { continue }
            documents.append((members["cancel"] == nil ? "request" : "cancel", value))
            answers.append(decoder.decode(value, key: message.key, receivedAt: 1_000))
        }
        let accepted = try await ContractSupport.expectSchemaAgreement(documents, answers)
        #expect(accepted > 50, "enough messages are valid to test agreement")
    }
}
