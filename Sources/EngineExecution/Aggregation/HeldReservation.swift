package import FeatureService

/// What an aggregation holds, reserved from the request's ``ResultBudget`` as it grows: percentile values,
/// distinct combinations. Each call reserves only the growth since the last; a refusal is the layer's
/// `limit_exceeded`, with the message the caller writes for what it holds.
package struct HeldReservation: Sendable {
    private let budget: ResultBudget
    private let unit: Int
    private let layer: String
    private var reserved = 0

    /// Reserves `unit` bytes per item held, from `budget`, for `layer`'s errors.
    package init(budget: ResultBudget, unit: Int, layer: String) {
        self.budget = budget
        self.unit = unit
        self.layer = layer
    }

    /// Reserves the items held beyond those reserved already; throws `limit_exceeded` with `message(held)`
    /// when the budget cannot hold them.
    package mutating func hold(_ held: Int, _ message: (Int) -> String) throws(FeatureServiceError) {
        guard held > reserved else { return }
        guard budget.reserve(count: held - reserved, unit: unit) == held - reserved else {
            throw FeatureServiceError(.limitExceeded, message(held), layer: layer)
        }
        reserved = held
    }
}
