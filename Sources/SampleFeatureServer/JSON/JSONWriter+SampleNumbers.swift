import FeatureQuerySupport

/// The sample server's number forms.
extension JSONWriter {
    /// The shortest text that reads back as `value`, as the sample server has always written its numbers:
    /// integral values below 10^15 without a fraction, larger ones with Swift's `.0` (a statistic's sum of
    /// dates in milliseconds reaches that range), `null` for NaN and infinities.
    @inline(__always)
    mutating func double(_ value: Double) {
        number(value, integralLimit: 1e15)
    }

    /// A coordinate held as whole centimeters, in meters with at most two decimals (`-1322545612` →
    /// `-13225456.12`): exact, no floating-point formatting, and it reads back as the same Double as
    /// `Double(cm) / 100`. The hot path of small-extent parcel queries.
    @inline(__always)
    mutating func centimeters(_ value: Int32) {
        if value < 0 { byte(UInt8(ascii: "-")) }
        let magnitude = value.magnitude
        integer(UInt64(magnitude / 100))
        let fraction = magnitude % 100
        if fraction != 0 {
            byte(UInt8(ascii: "."))
            byte(UInt8(truncatingIfNeeded: fraction / 10) &+ UInt8(ascii: "0"))
            if fraction % 10 != 0 { byte(UInt8(truncatingIfNeeded: fraction % 10) &+ UInt8(ascii: "0")) }
        }
    }
}
