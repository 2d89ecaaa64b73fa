package import Foundation

/// Runs the peers a benchmark compares against (a C client, wrk) as child processes.
package enum PeerProcess {
    /// Starts `process` and waits for it to exit without blocking a thread (Foundation's
    /// `waitUntilExit` spins a core on Linux, which would distort the figures).
    package static func run(_ process: Process) async throws -> Int32 {
        try await withCheckedThrowingContinuation { continuation in
            process.terminationHandler = { continuation.resume(returning: $0.terminationStatus) }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume(throwing: error)
            }
        }
    }

    /// The `key=value` fields of the first line starting with `RESULT ` that a C peer printed.
    package static func resultFields(_ output: String, program: String) throws -> [String: String] {
        guard let line = output.split(separator: "\n").first(where: { $0.hasPrefix("RESULT ") }) else {
            throw BenchmarkError("\(program) printed no RESULT line: \(output)")
        }
        var fields: [String: String] = [:]
        for pair in line.split(separator: " ").dropFirst() {
            let parts = pair.split(separator: "=", maxSplits: 1)
            if parts.count == 2 { fields[String(parts[0])] = String(parts[1]) }
        }
        return fields
    }
}
