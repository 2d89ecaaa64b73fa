package import ChildProcessFixture
import Foundation

import QueryWorker

/// Runs a command to its end, awaiting its exit without holding a thread, with no `QUERY_WORKER_*`
/// variables of the test's environment (they would be settings too).
package enum CommandRun {
    package typealias Output = ChildOutput

    package static func run(_ executable: String, _ arguments: [String]) async throws -> Output {
        let environment = ProcessInfo.processInfo.environment.filter { !$0.key.hasPrefix(SettingsKey.environmentPrefix) }
        return try await ChildProcesses.complete([executable] + arguments, environment: .replaced(environment))
    }
}
