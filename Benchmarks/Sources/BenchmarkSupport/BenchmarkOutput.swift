internal import Foundation

/// A benchmark that can't run or whose figures can't be trusted; the message says why.
package struct BenchmarkError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}

/// A number with a fixed count of decimals, for tables.
package func format(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}

extension String {
    /// Pads on the right to `width` characters.
    package func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// Pads on the left to `width` characters.
    package func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// Writes a line to standard output at once (unbuffered, so it interleaves with the logs on a pipe too).
package func output(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
