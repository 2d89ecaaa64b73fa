import Foundation
import Testing

@testable import QueryWorker

/// docs/contract/README.md lists every error code a worker can emit, with its status, meaning and
/// retryability; the sources' list (``ContractError/Code/allKnown``) and the table must agree.
@Suite struct ContractErrorCodeDocumentationTests {
    /// The codes in the first column of the "Every error code" table.
    static func documentedCodes() throws -> [String] {
        let text = try String(contentsOf: ContractSupport.contractDirectory.appendingPathComponent("README.md"), encoding: .utf8)
        let section = try #require(text.range(of: "### Every error code"), "the contract has no 'Every error code' section")
        var codes: [String] = []
        for line in text[section.upperBound...].split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("#") { break }
            guard line.hasPrefix("| `") else { continue }
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(cells.count == 6, "a row needs code, status, meaning and retryable: \(line)")
            #expect(cells.count < 5 || (!cells[3].isEmpty && !cells[4].isEmpty), "empty meaning or retryable: \(line)")
            codes.append(String(cells[1].dropFirst().dropLast()))
        }
        return codes
    }

    @Test func everyCodeInTheSourcesIsDocumentedAndNoOther() throws {
        let documented = try Self.documentedCodes()
        let known = ContractError.Code.allKnown.map(\.rawValue)
        #expect(Set(documented).count == documented.count, "a code is listed twice")
        #expect(Set(known).count == known.count, "allKnown repeats a code")
        #expect(Set(known).subtracting(documented).sorted() == [], "codes the worker emits but the contract omits")
        #expect(Set(documented).subtracting(known).sorted() == [], "codes the contract lists but no source mints")
    }

    @Test func theListCoversTheCodesTheWorkerMintsElsewhere() {
        let known = Set(ContractError.Code.allKnown.map(\.rawValue))
        for code in [HostPolicyError.Code.hostNotAllowed.rawValue, HostPolicyError.Code.invalidURL.rawValue] {
            #expect(known.contains(code), "\(code)")
        }
        for code in RejectionCase.rejectionCodes {
            #expect(known.contains(code.rawValue), "\(code)")
        }
    }
}
