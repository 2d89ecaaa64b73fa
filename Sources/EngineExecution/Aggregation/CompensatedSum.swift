/// A running sum of doubles with Neumaier's compensation: the rounding error of each addition is carried, so a
/// long sum of values of mixed magnitude keeps the digits a plain loop loses. PostgreSQL's `sum(float8)` adds
/// plainly; the two agree to the last bits or two, and this one is the closer to the exact sum.
struct CompensatedSum: Sendable {
    private var sum = 0.0
    private var compensation = 0.0

    mutating func add(_ value: Double) {
        let total = sum + value
        if abs(sum) >= abs(value) {
            compensation += (sum - total) + value
        } else {
            compensation += (value - total) + sum
        }
        sum = total
    }

    /// The sum; an infinite or NaN running sum is the answer as it is (its compensation means nothing).
    var total: Double { sum.isFinite ? sum + compensation : sum }
}
