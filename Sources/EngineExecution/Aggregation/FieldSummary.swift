import QueryLanguage

/// What every statistic over one field needs from one group's values, in constant memory except the values the
/// percentiles hold: the non-null count, the sum (exact in `Int64` while only integers come and it does not
/// overflow), Welford's running mean and squared deviations for the sample variance, the least and greatest
/// value, and, when a percentile is asked, the numeric values themselves.
///
/// Several statistics over one field share one summary, so memory grows with groups × fields, not with
/// statistics or features.
struct FieldSummary: Sendable {
    private(set) var count = 0
    private var integerSum: Int64 = 0
    private var doubleSum = CompensatedSum()
    /// A double came, or the integer sum overflowed: the sum is a double (as `sum` of a `float8` column is).
    private var sumIsDouble = false
    private var numericCount = 0
    private var mean = 0.0
    private var squaredDeviations = 0.0
    private(set) var minimum: AttributeValue = .null
    private(set) var maximum: AttributeValue = .null
    /// The numeric values, unsorted; `nil` when no percentile is asked of this field.
    private(set) var values: [AttributeValue]?

    init(keepsValues: Bool) {
        values = keepsValues ? [] : nil
    }

    /// Takes one value: null is skipped, as every SQL aggregate skips it. The caller has refused non-numeric
    /// values for fields whose statistics need numbers; strings and dates reach only count, min and max.
    mutating func add(_ value: AttributeValue) {
        let number: Double
        switch value {
        case .null: return
        case .integer(let integer):
            number = Double(integer)
            let (sum, overflow) = integerSum.addingReportingOverflow(integer)
            if overflow {
                doubleSum.add(Double(integerSum))
                integerSum = integer
                sumIsDouble = true
            } else {
                integerSum = sum
            }
        case .double(let double):
            number = double
            doubleSum.add(double)
            sumIsDouble = true
        case .string, .date:
            count += 1
            extendRange(value)
            return
        }
        count += 1
        extendRange(value)
        numericCount += 1
        let delta = number - mean
        mean += delta / Double(numericCount)
        squaredDeviations += delta * (number - mean)
        values?.append(value)
    }

    private mutating func extendRange(_ value: AttributeValue) {
        if case .null = minimum { minimum = value } else if AttributeOrder.compare(value, minimum) < 0 { minimum = value }
        if case .null = maximum { maximum = value } else if AttributeOrder.compare(value, maximum) > 0 { maximum = value }
    }

    /// `sum`: an integer while every value was an integer and the sum fits `Int64`, else a double; null
    /// without numbers.
    var sum: AttributeValue {
        guard numericCount > 0 else { return .null }
        guard sumIsDouble else { return .integer(integerSum) }
        var total = doubleSum
        total.add(Double(integerSum))
        return .double(total.total)
    }

    /// `avg`, always a double; null without numbers.
    var average: AttributeValue {
        guard numericCount > 0 else { return .null }
        guard case .double(let total) = sum else {
            return .double(Double(integerSum) / Double(numericCount))
        }
        return .double(total / Double(numericCount))
    }

    /// `var_samp`: null for fewer than two values.
    var sampleVariance: AttributeValue {
        numericCount < 2 ? .null : .double(squaredDeviations / Double(numericCount - 1))
    }

    /// `stddev_samp`: null for fewer than two values.
    var sampleStandardDeviation: AttributeValue {
        numericCount < 2 ? .null : .double((squaredDeviations / Double(numericCount - 1)).squareRoot())
    }
}
