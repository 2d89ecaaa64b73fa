extension Duration {
    /// The duration in whole milliseconds: the unit of deadlines, timeouts handed to C libraries, settings
    /// texts and log fields.
    ///
    /// One rule for every caller: the fraction below a millisecond is dropped (truncated toward zero), a
    /// negative duration is 0 (no timeout or wait is shorter than none, and C libraries read negative values
    /// as "forever" or reject them), and a duration beyond `Int64.max` milliseconds is `Int64.max` (instead of
    /// trapping on overflow; it is 292 million years).
    package var clampedMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        guard seconds >= 0, attoseconds >= 0 || seconds > 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000)
        guard !overflow else { return .max }
        let (total, overflowAgain) = whole.addingReportingOverflow(attoseconds / 1_000_000_000_000_000)
        guard !overflowAgain else { return .max }
        return max(0, total)
    }
}
