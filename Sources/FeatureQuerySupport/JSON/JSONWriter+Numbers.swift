extension JSONWriter {
    /// The largest magnitude below which every integral Double is exact (2^53): such values are written as
    /// integers, larger ones in Swift's round-trip form.
    package static let exactIntegerLimit: Double = 9_007_199_254_740_992

    /// Appends a decimal integer, without going through `String`.
    @inlinable
    package mutating func integer(_ value: Int) {
        integer(Int64(value))
    }

    /// Appends a decimal integer, without going through `String`.
    @inlinable
    package mutating func integer(_ value: Int64) {
        if value < 0 { buffer.append(UInt8(ascii: "-")) }
        digits(value.magnitude)
    }

    /// Appends a decimal integer, without going through `String`.
    @inlinable
    package mutating func integer(_ value: UInt64) {
        digits(value)
    }

    /// Appends an integer as a JSON string (`"-42"`): log metadata carries numbers as strings.
    @inlinable
    package mutating func quotedInteger(_ value: Int64) {
        buffer.append(UInt8(ascii: "\""))
        integer(value)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends an integer as a JSON string (`"42"`).
    @inlinable
    package mutating func quotedInteger(_ value: UInt64) {
        buffer.append(UInt8(ascii: "\""))
        digits(value)
        buffer.append(UInt8(ascii: "\""))
    }

    /// Appends the shortest text that reads back as `value`: integral values whose magnitude is below
    /// `integralLimit` as integers (`3`, not `3.0`), others in Swift's round-trip form, and `null` for values
    /// JSON cannot hold (NaN, infinities).
    ///
    /// The limit is the caller's: 2^53 (every integral Double below it is exact) for values written back out;
    /// the sample server keeps its own lower one, so its responses stay as they were.
    @inlinable
    package mutating func number(_ value: Double, integralLimit: Double = JSONWriter.exactIntegerLimit) {
        guard value.isFinite else {
            raw("null")
            return
        }
        if value == value.rounded(.towardZero), abs(value) < integralLimit {
            integer(Int64(value))
        } else {
            buffer.append(contentsOf: value.description.utf8)
        }
    }

    /// The number of bytes ``integer(_:)-(Int64)`` writes for `value`, for sizing a buffer before writing.
    package static func digitCount(_ value: Int64) -> Int {
        var magnitude = value.magnitude
        var count = value < 0 ? 2 : 1
        while magnitude >= 10 {
            magnitude /= 10
            count += 1
        }
        return count
    }

    /// Appends `values` as comma-separated integers (the inside of a JSON array), sized first and written in place:
    /// one growth of the buffer for the whole list instead of an append, with its uniqueness and capacity
    /// checks, per digit run and comma. An `ids` result writes 20,000 ids this way.
    package mutating func integerList(_ values: ArraySlice<Int64>) {
        guard !values.isEmpty else { return }
        var size = values.count - 1
        for value in values { size += Self.digitCount(value) }
        buffer.append(contentsOf: repeatElement(UInt8(ascii: ","), count: size))
        buffer.withUnsafeMutableBufferPointer { bytes in
            // From the list's end backwards, each number's digits last first; the commas are already in place.
            var position = bytes.count
            for (index, value) in values.reversed().enumerated() {
                if index > 0 { position -= 1 }
                var rest = value.magnitude
                repeat {
                    position -= 1
                    bytes[position] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
                    rest /= 10
                } while rest > 0
                if value < 0 {
                    position -= 1
                    bytes[position] = UInt8(ascii: "-")
                }
            }
        }
    }

    /// Writes the digits, most significant first, into a small buffer on the stack, then appends them at once:
    /// one append instead of one per digit, and no reversal.
    @inlinable
    mutating func digits(_ value: UInt64) {
        if value < 10 {
            buffer.append(UInt8(truncatingIfNeeded: value) &+ UInt8(ascii: "0"))
            return
        }
        var room: (UInt64, UInt64, UInt64) = (0, 0, 0)  // 24 bytes: room for UInt64's 20 digits
        withUnsafeMutableBytes(of: &room) { digits in
            var position = digits.count
            var rest = value
            repeat {
                position -= 1
                digits[position] = UInt8(truncatingIfNeeded: rest % 10) &+ UInt8(ascii: "0")
                rest /= 10
            } while rest > 0
            buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: digits[position...]))
        }
    }
}
