import Foundation
import Testing
import WorkerTestSupport
@testable import RequestContract

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

    /// The list is the tests', so it must itself be checked against the sources: every code `ContractError`
    /// mints (`static let name = Code("…")` in ContractError.swift) is on it, so a code added there without a
    /// row in the contract fails here.
    @Test func everyCodeContractErrorMintsIsOnTheList() throws {
        let minted = try Self.mintedCodes(in: "Sources/RequestContract/ContractError.swift")
        #expect(minted.count >= 20, "found only \(minted.count) codes: has ContractError.swift changed shape?")
        let known = Set(ContractError.Code.allKnown.map(\.rawValue))
        #expect(minted.filter { !known.contains($0) } == [], "codes ContractError mints that the list (and so the contract) omits")
    }

    /// Every code `AuthenticationFailure` mints (EngineExecution's seam between the engines and the credentials)
    /// reaches outcomes as a failed layer's code, so each must be on the list, hence in the contract.
    @Test func everyAuthenticationCodeIsOnTheList() throws {
        let minted = try Self.mintedCodes(in: "Sources/EngineExecution/RequestAuthenticator.swift")
        #expect(minted.count >= 9, "found only \(minted.count) codes: has RequestAuthenticator.swift changed shape?")
        let known = Set(ContractError.Code.allKnown.map(\.rawValue))
        #expect(minted.filter { !known.contains($0) } == [], "authentication codes the list (and so the contract) omits")
        #expect(!known.contains("unsupported_credential"), "unsupported_credential is retired")
    }

    /// The codes a source file mints: each `static let name = Code("…")` line's text.
    static func mintedCodes(in path: String) throws -> [String] {
        let source = try String(contentsOf: ContractSupport.repositoryRoot.appendingPathComponent(path), encoding: .utf8)
        return source.split(separator: "\n").compactMap { line -> String? in
            guard line.contains("static let"), let start = line.range(of: "Code(\""),
                let end = line[start.upperBound...].firstIndex(of: "\"")
            else { return nil }
            return String(line[start.upperBound..<end])
        }
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
