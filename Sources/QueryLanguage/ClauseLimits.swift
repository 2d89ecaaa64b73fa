/// Bounds on what the parser accepts, so that any input finishes quickly and in bounded memory and stack.
///
/// Checked in order: the byte length before anything is read, then tokens, field-name length, `IN` list
/// length and nesting depth while parsing. Every recursive walk over a parsed clause (validation, rendering,
/// evaluation) is bounded by ``maxDepth``, which is why it is capped at ``depthCeiling``.
package struct ClauseLimits: Sendable, Hashable {
    /// The most UTF-8 bytes a clause may have (default 64 KiB, at most ``byteCeiling``).
    package var maxClauseBytes: Int
    /// The deepest nesting of parentheses, function calls and operators (default 200, at most ``depthCeiling``).
    package var maxDepth: Int
    /// The most tokens (words, literals, operators) a clause may have.
    package var maxTokens: Int
    /// The most values in one `IN` list.
    package var maxListItems: Int
    /// The longest field name, in UTF-8 bytes.
    package var maxIdentifierBytes: Int
    /// The longest `LIKE` pattern, in UTF-8 bytes not counting escape characters. Matching costs at most (value length x pattern length)
    /// steps per record, so this bounds what one clause can cost the evaluator on every record.
    package var maxPatternBytes: Int

    /// No configuration may raise the byte limit past 512 KiB: a 1 MB clause is always refused unread.
    package static let byteCeiling = 512 * 1024
    /// No configuration may raise the depth limit past 256: the stack budget of the recursive walks.
    package static let depthCeiling = 256

    /// Limits; values past the ceilings are lowered to them, and values below 1 raised to 1.
    package init(
        maxClauseBytes: Int = 64 * 1024,
        maxDepth: Int = 200,
        maxTokens: Int = 20_000,
        maxListItems: Int = 5_000,
        maxIdentifierBytes: Int = 128,
        maxPatternBytes: Int = 1_024
    ) {
        self.maxClauseBytes = max(1, min(maxClauseBytes, Self.byteCeiling))
        self.maxDepth = max(1, min(maxDepth, Self.depthCeiling))
        self.maxTokens = max(1, maxTokens)
        self.maxListItems = max(1, maxListItems)
        self.maxIdentifierBytes = max(1, maxIdentifierBytes)
        self.maxPatternBytes = max(1, maxPatternBytes)
    }

    /// 64 KiB, depth 200, 20,000 tokens, 5,000 list values, 128-byte names, 1 KiB LIKE patterns.
    package static let `default` = ClauseLimits()
}
