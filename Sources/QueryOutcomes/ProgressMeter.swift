/// What a progress bar shows for a long request: features so far, the expected total when the server said it,
/// the rate over the last few seconds and the time left at that rate.
///
/// Pure arithmetic over the readings it is given (from the worker's progress events, or an engine's pages in
/// `export`), so the display code only prints, and the numbers are tested without a terminal or a clock.
package struct ProgressMeter: Sendable {
    /// One reading: how far the request was at `elapsed` since it started.
    package struct Reading: Sendable, Hashable {
        package var features: Int
        package var expected: Int?
        package var pages: Int
        package var elapsed: Duration

        package init(features: Int, expected: Int?, pages: Int, elapsed: Duration) {
            self.features = features
            self.expected = expected
            self.pages = pages
            self.elapsed = elapsed
        }
    }

    /// How far back the rate looks: long enough to smooth out one slow page, short enough to follow a change.
    package static let window: Duration = .seconds(10)

    private var readings: [Reading] = []

    package init() {}

    /// The latest reading, if any.
    package var latest: Reading? { readings.last }

    /// Takes a reading; one older than the latest (events can arrive out of order) is ignored.
    package mutating func record(_ reading: Reading) {
        if let last = readings.last, reading.elapsed < last.elapsed { return }
        readings.append(reading)
        let horizon = reading.elapsed - Self.window
        // Keep one reading at or before the horizon, so the rate spans the whole window.
        while readings.count > 2, readings[1].elapsed <= horizon { readings.removeFirst() }
    }

    /// Features per second over the window; `nil` until two readings are a moment apart.
    package var featuresPerSecond: Double? {
        guard let first = readings.first, let last = readings.last else { return nil }
        let seconds = Self.seconds(last.elapsed - first.elapsed)
        guard seconds >= 0.05 else { return nil }
        return Double(last.features - first.features) / seconds
    }

    /// The time left at the current rate; `nil` without an expected total or a rate.
    package var remaining: Duration? {
        guard let last = readings.last, let expected = last.expected, let rate = featuresPerSecond, rate > 0 else { return nil }
        let left = max(0, expected - last.features)
        return .milliseconds(Int64((Double(left) / rate * 1000).rounded()))
    }

    /// The fraction done, 0...1, when the total is known.
    package var fraction: Double? {
        guard let last = readings.last, let expected = last.expected, expected > 0 else { return nil }
        return min(1, Double(last.features) / Double(expected))
    }

    /// One line for a log or a pipe: `progress: 12,000 of 69,281 features (17%), 3 pages, 4,012/s, about 14 s left`.
    package var plainLine: String {
        guard let last = readings.last else { return "progress: nothing read yet" }
        var parts = ["progress: \(Self.grouped(last.features))"]
        if let expected = last.expected {
            parts[0] += " of \(Self.grouped(expected)) features"
            if let fraction { parts[0] += " (\(Int((fraction * 100).rounded(.down)))%)" }
        } else {
            parts[0] += " features"
        }
        parts.append(last.pages == 1 ? "1 page" : "\(Self.grouped(last.pages)) pages")
        if let rate = featuresPerSecond { parts.append("\(Self.grouped(Int(rate.rounded())))/s") }
        if let remaining { parts.append("about \(Self.clock(remaining)) left") }
        return parts.joined(separator: ", ")
    }

    /// A bar for a terminal `width` columns wide: `[#######.............] 12,000/69,281  4,012/s  0:14 left`; without
    /// a total, the count and rate only.
    package func bar(width: Int) -> String {
        guard let last = readings.last else { return "" }
        var tail = last.expected.map { " \(Self.grouped(last.features))/\(Self.grouped($0))" } ?? " \(Self.grouped(last.features)) features"
        if let rate = featuresPerSecond { tail += "  \(Self.grouped(Int(rate.rounded())))/s" }
        if let remaining { tail += "  \(Self.clock(remaining)) left" }
        guard let fraction else { return String(tail.dropFirst().prefix(max(0, width))) }
        let barWidth = max(10, min(40, width - tail.count - 2))
        let filled = Int((fraction * Double(barWidth)).rounded(.down))
        let line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled) + "]" + tail
        return String(line.prefix(max(0, width)))
    }

    static func seconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) + Double(attoseconds) / 1e18
    }

    /// `1,234,567`: counts people read at a glance.
    static func grouped(_ value: Int) -> String {
        let digits = String(value.magnitude)
        var out = ""
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { out.append(",") }
            out.append(digit)
        }
        return value < 0 ? "-" + out : out
    }

    /// `0:14`, `12:05`, `1:02:03`.
    static func clock(_ duration: Duration) -> String {
        let total = Int(seconds(duration).rounded(.up))
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        let mmss = "\(minutes):" + (seconds < 10 ? "0\(seconds)" : "\(seconds)")
        return hours > 0 ? "\(hours):" + (minutes < 10 ? "0" : "") + mmss : mmss
    }
}
