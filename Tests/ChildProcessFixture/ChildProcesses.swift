package import Foundation
import Glibc
import Synchronization

/// Why a child process could not be started or did not succeed, with the tail of its output.
package struct ChildProcessFailure: Error, CustomStringConvertible {
    package var description: String

    package init(_ description: String) {
        self.description = description
    }
}

/// What every fixture that runs servers and tools needs: a free loopback
/// port, and one-shot tools run to completion without blocking a cooperative thread.
package enum ChildProcesses {
    /// The repository's root (this file is `Tests/ChildProcessFixture/ChildProcesses.swift`).
    package static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Python that independent clients and servers run on: `QUERY_WORKER_PYTHON` (the README's test command
    /// sets it), else the repository's `.venv`; nil when there is neither.
    package static var python: String? {
        if let configured = ProcessInfo.processInfo.environment["QUERY_WORKER_PYTHON"] { return configured }
        let venv = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        return FileManager.default.isExecutableFile(atPath: venv) ? venv : nil
    }

    /// A loopback port free right now, for servers that need their port on their command line or in a
    /// configuration file, taken from below the kernel's ephemeral range.
    ///
    /// Why not the kernel's choice (bind to port 0, read it back, release it): that port is in the ephemeral
    /// range, which every outgoing connection's source port is also drawn from. Between the release and the
    /// server's own bind (a second or more for moto, postgres or pygeoapi) a connection of any process could
    /// take it, and the server then exited at start ("address in use"): it happened beside the outage suites,
    /// whose clients reconnect to stopped brokers every few milliseconds. No connection takes a port below the
    /// range. Ports handed out by this process are not handed out again, nor by another test process while this
    /// one runs (``claim(_:)``): the test command runs seven processes at once, and two of them once gave the same
    /// port to two servers; the second exited at start, and its fixture reached the first one's server (f42).
    package static func unusedPort() throws -> Int {
        let (low, _) = ephemeralRange()
        let candidates = max(1_024, low - 12_000)..<low
        for _ in 0..<200 {
            guard let port = candidates.randomElement() else { break }
            guard handedOut.withLock({ $0.insert(port).inserted }) else { continue }
            if claim(port), bindable(port) { return port }
        }
        throw ChildProcessFailure("no free loopback port below \(low) after 200 tries")
    }

    /// Ports this process gave out (a server may not have bound its port yet when another fixture asks).
    private static let handedOut = Mutex<Set<Int>>([])

    /// Claims `port` among the test processes of this machine: an exclusive `flock` on a file named after it,
    /// held (the descriptor left open) until this process exits, when the kernel releases it. False when
    /// another process holds it.
    private static func claim(_ port: Int) -> Bool {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("query-worker-test-ports").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let descriptor = Glibc.open(folder + "/\(port)", O_RDWR | O_CREAT | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { return true }  // no lock file (a read-only /tmp): the bind check alone
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            _ = Glibc.close(descriptor)
            return false
        }
        return true
    }

    /// `net.ipv4.ip_local_port_range`: where connect(2) draws source ports from (32768–60999 by default).
    private static func ephemeralRange() -> (Int, Int) {
        let text = (try? String(contentsOfFile: "/proc/sys/net/ipv4/ip_local_port_range", encoding: .utf8)) ?? ""
        let numbers = text.split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
        guard numbers.count == 2, numbers[0] > 1_024 + 1_000 else { return (32_768, 60_999) }
        return (numbers[0], numbers[1])
    }

    /// Whether 127.0.0.1:`port` can be bound now (it is released at once).
    private static func bindable(_ port: Int) -> Bool {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { return false }
        defer { _ = Glibc.close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
        address.sin_port = UInt16(port).bigEndian
        return withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { pointer in
                Glibc.bind(socket, pointer, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0
            }
        }
    }

    /// How a one-shot tool's environment is made.
    package enum Environment: Sendable {
        /// This process's environment.
        case inherited
        /// Exactly these variables.
        case replaced([String: String])
        /// This process's environment with these variables set.
        case adding([String: String])
    }

    /// Runs a one-shot tool to completion (killed after `timeout`) and returns its standard output; throws with
    /// the tail of its output and errors when it fails. Waits with `Task.sleep`, never blocking a cooperative
    /// thread.
    @discardableResult
    package static func run(
        _ arguments: [String], environment: Environment = .inherited, timeout: Duration = .seconds(120)
    ) async throws -> String {
        String(decoding: try await output(of: arguments, environment: environment, timeout: timeout), as: UTF8.self)
    }

    /// ``run(_:environment:timeout:)``'s standard output as bytes (a decompressor's, say, which need not be text).
    package static func output(
        of arguments: [String], environment: Environment = .inherited, timeout: Duration = .seconds(120)
    ) async throws -> [UInt8] {
        let finished = try await complete(arguments, environment: environment, timeout: timeout)
        guard finished.termination == .exited(0) else {
            let how = finished.termination.map { "\($0)" } ?? "still running"
            throw ChildProcessFailure(
                "\(arguments.joined(separator: " ")) failed (\(how)): \(finished.stdout.suffix(1_000)) \(finished.stderr.suffix(2_000))")
        }
        return finished.standardOutputBytes
    }
}
