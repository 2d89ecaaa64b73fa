public import Foundation

/// A benchmark that can't run or whose figures can't be trusted; the message says why.
public struct BenchmarkError: Error, CustomStringConvertible {
    public let description: String
    public init(_ description: String) { self.description = description }
}

/// A number with a fixed count of decimals, for tables.
public func format(_ value: Double, _ digits: Int) -> String {
    String(format: "%.\(digits)f", value)
}

extension String {
    /// Pads on the right to `width` characters.
    public func padding(_ width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }

    /// Pads on the left to `width` characters.
    public func leftPadding(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

/// Writes a line to standard output at once (unbuffered, so it interleaves with the logs on a pipe too).
public func output(_ line: String) {
    FileHandle.standardOutput.write(Data((line + "\n").utf8))
}
