import ChildProcessFixture
import Foundation

/// A server program under a ``WatchedProcess``, on loopback ports picked free just before it starts; a start
/// that loses a port to another process is retried on new ones.
struct ServerProcess: Sendable {
    let process: WatchedProcess
    let ports: [Int]

    /// Starts the program `launch` returns for `portCount` free ports (after writing its configuration), and
    /// waits until every port listens.
    static func start(
        name: String,
        in directory: String,
        portCount: Int,
        environment: [String: String]? = nil,
        launch: ([Int]) throws -> [String]
    ) async throws -> ServerProcess {
        var lastLog = ""
        for _ in 1...5 {
            let ports = try (0..<portCount).map { _ in try NetworkAuthTools.unusedPort() }
            let merged = environment.map { ProcessInfo.processInfo.environment.merging($0) { $1 } }
            let process = try WatchedProcess(name: name, try launch(ports), environment: merged, logDirectory: directory)
            let deadline = ContinuousClock.now + .seconds(20)
            while process.isRunning, ContinuousClock.now < deadline, !ports.allSatisfy(NetworkAuthTools.isListening) {
                try await Task.sleep(for: .milliseconds(20))
            }
            if process.isRunning, ports.allSatisfy(NetworkAuthTools.isListening) {
                return ServerProcess(process: process, ports: ports)
            }
            await process.stop()
            lastLog = process.log + ((try? String(contentsOfFile: "\(directory)/error.log", encoding: .utf8)) ?? "")
        }
        throw NetworkAuthFixtureFailure("\(name) did not start: \(lastLog.suffix(3_000))")
    }

    func stop() async {
        await process.stop()
    }
}

/// Runs `body` with a started fixture and always stops it (and removes its folder), even when `body` throws.
func withStarted<Fixture, T>(
    _ start: () async throws -> Fixture,
    stop: (Fixture) async -> Void,
    _ body: (Fixture) async throws -> T
) async throws -> T {
    let fixture = try await start()
    do {
        let result = try await body(fixture)
        await stop(fixture)
        return result
    } catch {
        await stop(fixture)
        throw error
    }
}
