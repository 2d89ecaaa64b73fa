import FeatureService

/// Whether a layer's result holds every matching feature, and the evidence: the runner's own record, from
/// which the seam's ``ServiceLayerResult/isComplete`` and ``ServiceLayerResult/incompleteReason`` are read.
///
/// The engine counts matches separately (`returnCountOnly`) and compares with the unique ids it received,
/// because services drop and repeat rows while paging (esridump #39, #97; arcgis-python-api #1870).
struct Completeness: Sendable, Hashable {
    /// The service's count of matching features, when it was asked.
    var expected: Int?
    /// Unique object ids in the result.
    var received: Int
    /// Rows that repeated an id already received (dropped from the result).
    var duplicates: Int
    /// Ids fetched again by `objectIds` because paging missed them.
    var repaired: Int
    /// The result was cut at the caller's `maxFeatures`.
    var truncatedByLimit: Bool
    /// The result was cut because the request's ``ResultBudget`` was spent: it holds what arrived before (for
    /// features, whole pages, not necessarily the lowest ids).
    var truncatedByBudget: Bool

    init(
        expected: Int?, received: Int, duplicates: Int = 0, repaired: Int = 0, truncatedByLimit: Bool = false,
        truncatedByBudget: Bool = false
    ) {
        self.expected = expected
        self.received = received
        self.duplicates = duplicates
        self.repaired = repaired
        self.truncatedByLimit = truncatedByLimit
        self.truncatedByBudget = truncatedByBudget
    }

    /// True when every match arrived: the unique ids equal the count (or no count was needed), and nothing
    /// was cut by a limit.
    var isComplete: Bool {
        guard !truncatedByLimit, !truncatedByBudget else { return false }
        guard let expected else { return true }
        return received == expected
    }

    /// Why the result is incomplete, in the seam's words: the budget first (it cuts below `maxFeatures`), then
    /// the limit, then rows the service lost while paging.
    var incompleteReason: IncompleteReason? {
        if isComplete { return nil }
        if truncatedByBudget { return .resultBudget }
        if truncatedByLimit { return .maxFeatures }
        return .rowsLost
    }
}
