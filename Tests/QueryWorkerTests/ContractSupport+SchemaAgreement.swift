import RequestFuzzing
import Testing
import WorkerTestSupport
@testable import RequestContract

@testable import QueryWorker

extension ContractSupport {
    /// Checks the decoder's answers against the contract's schema, message by message: what it accepts is
    /// schema-valid, and what the schema accepts it refuses only with a code a schema cannot check (a
    /// credential, a named query, a where clause, a host). Returns how many messages the decoder accepted.
    static func expectSchemaAgreement(_ documents: [(schema: String, bytes: [UInt8])], _ answers: [IncomingMessage]) async throws -> Int {
        let verdicts = try await validate(documents)
        var accepted = 0
        for (index, verdict) in verdicts.enumerated() {
            let text = String(decoding: documents[index].bytes.prefix(2_000), as: UTF8.self)
            switch answers[index] {
            case .query, .cancel:
                accepted += 1
                #expect(verdict.valid, "accepted but schema-invalid: \(text)\n\(verdict.errors)")
            case .rejected(let rejection):
                if verdict.valid {
                    #expect(RequestFuzzOracle.workerOnlyCodes.contains(rejection.code.rawValue), "schema-valid but \(rejection): \(text)")
                }
            }
        }
        return accepted
    }
}
