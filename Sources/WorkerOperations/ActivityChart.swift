package import QueryWorker

/// The status page's chart: answers per interval as bars, errors stacked in red at their foot, as an inline
/// SVG (no script, no external resource). Each bar carries its figures in `data-` attributes, so a test (or a
/// person's devtools) reads the numbers the picture was drawn from.
package struct ActivityChart: Sendable {
    package var buckets: [WorkerStatus.ActivityBucket]
    /// Seconds per bucket, for the axis label.
    package var bucketSeconds: Int

    static let width = 720
    static let height = 180
    static let left = 44
    static let bottom = 24

    package init(buckets: [WorkerStatus.ActivityBucket], bucketSeconds: Int) {
        self.buckets = buckets
        self.bucketSeconds = bucketSeconds
    }

    /// The SVG element.
    package var svg: String {
        let plotWidth = Self.width - Self.left - 8
        let plotHeight = Self.height - Self.bottom - 8
        let peak = max(1, buckets.map(\.answered).max() ?? 1)
        let scale = Self.niceCeiling(peak)
        let slot = Double(plotWidth) / Double(max(1, buckets.count))
        let answered = buckets.reduce(0) { $0 + $1.answered }
        let errors = buckets.reduce(0) { $0 + $1.errors }
        var svg = """
            <svg id="activity-chart" xmlns="http://www.w3.org/2000/svg" width="\(Self.width)" height="\(Self.height)" \
            viewBox="0 0 \(Self.width) \(Self.height)" role="img" data-buckets="\(buckets.count)" \
            data-bucket-seconds="\(bucketSeconds)" data-answered="\(answered)" data-errors="\(errors)">
            <title>Answers (grey) and errors (red) per \(bucketSeconds) s, last \(buckets.count * bucketSeconds / 60) minutes</title>

            """
        for fraction in [0.0, 0.5, 1.0] {
            let y = Double(8 + plotHeight) - fraction * Double(plotHeight)
            svg += """
                <line x1="\(Self.left)" y1="\(Self.fixed(y))" x2="\(Self.width - 8)" y2="\(Self.fixed(y))" class="grid"/>\
                <text x="\(Self.left - 4)" y="\(Self.fixed(y + 4))" text-anchor="end">\(Int(fraction * Double(scale)))</text>

                """
        }
        for (index, bucket) in buckets.enumerated() {
            let x = Double(Self.left) + Double(index) * slot
            let barHeight = Double(bucket.answered) / Double(scale) * Double(plotHeight)
            let errorHeight = Double(bucket.errors) / Double(scale) * Double(plotHeight)
            let base = Double(8 + plotHeight)
            svg += """
                <g class="bucket" data-start-ms="\(bucket.startMs)" data-answered="\(bucket.answered)" data-errors="\(bucket.errors)">\
                <rect class="answered" x="\(Self.fixed(x + 0.5))" y="\(Self.fixed(base - barHeight))" width="\(Self.fixed(max(1, slot - 1)))" height="\(Self.fixed(barHeight))"/>\
                <rect class="errors" x="\(Self.fixed(x + 0.5))" y="\(Self.fixed(base - errorHeight))" width="\(Self.fixed(max(1, slot - 1)))" height="\(Self.fixed(errorHeight))"/>\
                </g>

                """
        }
        let minutes = buckets.count * bucketSeconds / 60
        svg += """
            <text x="\(Self.left)" y="\(Self.height - 6)">−\(minutes) min</text>\
            <text x="\(Self.width - 8)" y="\(Self.height - 6)" text-anchor="end">now</text>
            </svg>
            """
        return svg
    }

    /// The smallest of 1, 2, 5 × 10ⁿ at or above `value`: a scale a person reads at a glance.
    static func niceCeiling(_ value: Int) -> Int {
        var magnitude = 1
        while true {
            for step in [1, 2, 5] where step * magnitude >= value { return step * magnitude }
            magnitude *= 10
        }
    }

    static func fixed(_ value: Double) -> String {
        let rounded = (value * 10).rounded() / 10
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
