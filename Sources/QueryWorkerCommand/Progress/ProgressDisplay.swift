import Foundation
import Glibc
import QueryOutcomes
import Synchronization

/// Shows a long request's progress on standard error: a bar redrawn in place on a terminal, or a plain line per
/// update when standard error is a pipe or a file (a CI log, a script), so progress never mixes with the
/// results on standard output.
final class ProgressDisplay: Sendable {
    private struct State {
        var meter = ProgressMeter()
        /// Whether a bar is on screen (a terminal's line to clear when done).
        var drawn = false
        var lastShown: Duration?
    }

    private let terminal: Bool
    private let width: Int
    /// Updates closer together than this are not shown (the worker already sends at most one per second; an
    /// engine in `export` reports every page).
    private let interval: Duration
    private let state = Mutex(State())

    init(interval: Duration = .seconds(1)) {
        terminal = isatty(STDERR_FILENO) == 1
        width = Self.columns()
        self.interval = interval
    }

    /// Takes a reading and shows it, unless one was shown less than an interval ago.
    func update(_ reading: ProgressMeter.Reading) {
        let text: String? = state.withLock { state in
            state.meter.record(reading)
            if let last = state.lastShown, reading.elapsed - last < interval { return nil }
            state.lastShown = reading.elapsed
            if terminal {
                state.drawn = true
                return "\r\u{1B}[K" + state.meter.bar(width: width - 1)
            }
            return state.meter.plainLine + "\n"
        }
        if let text { FileHandle.standardError.write(Data(text.utf8)) }
    }

    /// Clears the bar (a terminal's line) before the outcome is printed.
    func finish() {
        let drawn = state.withLock { state in
            defer { state.drawn = false }
            return state.drawn
        }
        if drawn { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
    }

    /// The terminal's width, from the kernel; 80 when it cannot say.
    private static func columns() -> Int {
        var size = winsize()
        guard ioctl(STDERR_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return 80 }
        return Int(size.ws_col)
    }
}
