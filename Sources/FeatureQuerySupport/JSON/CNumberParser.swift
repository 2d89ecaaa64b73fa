#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The C library's correctly rounded `strtod`, on a NUL-terminated copy of the number made on the stack: for
/// the numbers the exact fast path cannot take (17-digit Web Mercator coordinates), without allocating a
/// `String` per number.
///
/// `strtod` reads the decimal point of the process's locale. JSON numbers use ".", so under a locale with
/// another decimal point `strtod` stops early; that is detected (it did not consume every byte) and the
/// caller falls back to the standard library's locale-independent conversion.
package enum CNumberParser {
    /// The value of an already-validated JSON number of at most 63 bytes; `nil` when it cannot say.
    package static func parse(_ number: UnsafeBufferPointer<UInt8>) -> Double? {
        guard number.count < 64 else { return nil }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> Double? in
            guard let base = buffer.baseAddress else { return nil }
            for i in 0..<number.count { buffer[i] = CChar(bitPattern: number[i]) }
            buffer[number.count] = 0
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(base, &end)
            return end == base + number.count ? value : nil
        }
    }
}
