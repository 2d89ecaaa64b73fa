extension Duration {
    /// The duration in whole milliseconds (truncated): the unit of deadlines, `Retry-After` details and
    /// settings texts.
    var wholeMilliseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000 + attoseconds / 1_000_000_000_000_000
    }
}
