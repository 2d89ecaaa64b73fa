import BenchmarkSupport
import Foundation

/// Counts events in one process over a run's steady state with `perf stat -p`: system calls, context
/// switches, and through uprobes (`Benchmarks/perf-probes.sh` defines them) calls of `malloc`, `swift_retain`,
/// `swift_task_create` and the like. A count per request does not move with the machine's load the way CPU
/// time does, so it tells two builds, or the worker and the C floor, apart where this machine's CPU times
/// (±15 % between invocations) cannot. Uprobes trap on every call: a counted run's CPU figures are inflated and
/// not to be compared with an uncounted run's.
struct EventCounter {
    private let process: Process
    /// Ends when perf has exited (its termination handler finishes it): awaited without blocking a thread.
    private let exited: AsyncStream<Void>
    private let outputPath: String

    /// Attaches `perf stat` to `pid`; its counts go to `outputPath` when ``stop()`` interrupts it.
    static func start(pid: Int32, events: [String], outputPath: String) throws -> EventCounter {
        let process = Process()
        // A child started from here inherits this process's blocked signals, SIGINT among them (perf's
        // /proc/PID/status showed it in SigBlk), and perf started directly never saw the interrupt that tells it
        // to print: the run waited forever. Python clears the mask and execs perf.
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [
            "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execvp('perf', sys.argv[1:])",
            "perf", "stat", "-x", ",", "-e", events.joined(separator: ","), "-p", String(pid), "-o", outputPath,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.standardError
        let (exited, continuation) = AsyncStream<Void>.makeStream()
        process.terminationHandler = { _ in continuation.finish() }
        do { try process.run() } catch {
            throw BenchmarkError("cannot start perf stat (Debian package linux-perf): \(error)")
        }
        return EventCounter(process: process, exited: exited, outputPath: outputPath)
    }

    /// Stops counting and returns each event's count (perf stat's CSV: count, unit, event, ...). An event perf
    /// could not count is missing from the result rather than zero.
    func stop() async throws -> [String: Double] {
        process.interrupt()
        for await _ in exited {}
        let text = try String(contentsOfFile: outputPath, encoding: .utf8)
        return Self.parse(text)
    }

    /// `perf stat -x ,` lines: `1234,,probe_libc:malloc,100.00,...`; comments start with `#`; an uncounted
    /// event reads `<not counted>` or `<not supported>`.
    static func parse(_ text: String) -> [String: Double] {
        var counts: [String: Double] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let fields = line.split(separator: ",", omittingEmptySubsequences: false)
            guard fields.count >= 3, let count = Double(fields[0]) else { continue }
            counts[String(fields[2]), default: 0] += count
        }
        return counts
    }
}
