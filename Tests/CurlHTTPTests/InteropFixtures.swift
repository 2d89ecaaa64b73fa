import ChildProcessFixture
import Foundation

/// The files in Fixtures/ (excluded from compilation): config templates and the PKI script.
enum Fixtures {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    /// A template with every `@KEY@` replaced by its value.
    static func fill(_ name: String, _ values: [String: String]) throws -> String {
        var text = try String(contentsOfFile: "\(directory)/\(name)", encoding: .utf8)
        for (key, value) in values { text = text.replacingOccurrences(of: "@\(key)@", with: value) }
        return text
    }

    static var runningAsRoot: Bool { geteuid() == 0 }
}

/// A throw-away PKI made by Fixtures/make-pki.sh with openssl: a CA, a server certificate for 127.0.0.1
/// and localhost, a client certificate (PEM with an encrypted key, and PKCS#12), and an unrelated CA.
struct TestPKI: Sendable {
    let directory: String
    var caCertificate: String { "\(directory)/ca.pem" }
    var unrelatedCA: String { "\(directory)/other-ca.pem" }
    var clientCertificate: String { "\(directory)/client.pem" }
    var clientKey: String { "\(directory)/client-encrypted.key" }
    let clientKeyPassphrase = "keypass"
    var clientPKCS12: String { "\(directory)/client.p12" }
    let pkcs12Password = "p12pass"

    static func make(in directory: TemporaryDirectory) async throws -> TestPKI {
        _ = try Tools.require("openssl")
        _ = try await ChildProcess.check("/bin/sh", ["\(Fixtures.directory)/make-pki.sh", directory.path])
        return TestPKI(directory: directory.path)
    }
}

/// A server program run in the foreground from a config in a temporary directory, on ports picked free
/// just before; a start that loses its port to a race is retried on new ones.
///
/// The ports come from ``ChildProcesses/unusedPort()`` (below the ephemeral range, claimed among the test
/// processes), not from the kernel's choice for port 0. A kernel-chosen port is ephemeral, and the mock Kafka
/// brokers in the same test process bind port 0 too: one took nginx's HTTPS port between its pick and nginx's
/// bind. nginx keeps retrying a failed bind for seconds while its other ports already listen, so every port
/// answered, and the first TLS handshake reached a Kafka broker, which reset it (curl 35; fresh clone f58).
struct ForegroundServer: Sendable {
    let directory: TemporaryDirectory
    let process: ChildProcess

    /// Starts `executable` with the arguments `launch` gives for a set of `portCount` free ports (after it
    /// has written the config), and waits until every port listens.
    static func start(
        _ executable: String,
        in directory: TemporaryDirectory,
        portCount: Int,
        launch: ([Int]) throws -> [String]
    ) async throws -> (ForegroundServer, [Int]) {
        var lastError = ""
        for _ in 1...5 {
            let ports = try (0..<portCount).map { _ in try ChildProcesses.unusedPort() }
            let process = try ChildProcess(executable, try launch(ports), directory: directory.path)
            let deadline = ContinuousClock.now + .seconds(20)
            while process.isRunning, ContinuousClock.now < deadline, !ports.allSatisfy(LoopbackPorts.isListening) {
                try await Task.sleep(for: .milliseconds(20))
            }
            if process.isRunning, ports.allSatisfy(LoopbackPorts.isListening) {
                return (ForegroundServer(directory: directory, process: process), ports)
            }
            await process.stop()
            lastError = process.standardError + ((try? String(contentsOfFile: "\(directory.path)/error.log", encoding: .utf8)) ?? "")
        }
        throw ChildProcess.Failure(description: "\(executable) did not start: \(lastError)")
    }

    func stop() async {
        await process.stop()
        directory.remove()
    }
}
