import FeatureQuerySupport

/// `application/x-www-form-urlencoded` on UTF-8 bytes: ASCII letters, digits and `-._*` stay, space becomes
/// `+`, every other byte becomes `%XX` in upper-case hex.
///
/// Every ArcGIS query encodes its where clause and geometry, so this runs for each field of each request.
/// Working on the bytes (one counting pass, then one writing pass into a buffer of the exact size) costs a
/// fraction of building a `String` scalar by scalar with a `String(radix:)` per escaped byte, and text with
/// nothing to escape is returned as it is, without a copy.
enum FormEncoding {
    /// Whether `byte` is sent as it is.
    @inline(__always)
    static func isUnreserved(_ byte: UInt8) -> Bool {
        ASCIIByteSet.formUnreserved.contains(byte)
    }

    /// The encoded length of `source`, and whether any byte changes (a space keeps the length but changes).
    @inline(__always)
    private static func measure(_ source: UnsafeBufferPointer<UInt8>) -> (length: Int, changed: Bool) {
        var length = source.count
        var changed = false
        for byte in source where !isUnreserved(byte) {
            changed = true
            if byte != UInt8(ascii: " ") { length &+= 2 }
        }
        return (length, changed)
    }

    /// Writes the encoding of `source` at the start of `output`, which holds at least `measure`'s length;
    /// returns the bytes written.
    @inline(__always)
    private static func write(_ source: UnsafeBufferPointer<UInt8>, into output: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var written = 0
        for byte in source {
            if isUnreserved(byte) {
                output[written] = byte
                written &+= 1
            } else if byte == UInt8(ascii: " ") {
                output[written] = UInt8(ascii: "+")
                written &+= 1
            } else {
                output[written] = UInt8(ascii: "%")
                output[written &+ 1] = ASCII.uppercaseHexDigit(byte >> 4)
                output[written &+ 2] = ASCII.uppercaseHexDigit(byte & 0x0F)
                written &+= 3
            }
        }
        return written
    }

    /// The encoding of `text`; `text` itself when nothing needs escaping.
    static func encode(_ text: String) -> String {
        var text = text
        return text.withUTF8 { source -> String? in
            let (length, changed) = measure(source)
            guard changed else { return nil }
            return String(unsafeUninitializedCapacity: length) { write(source, into: $0) }
        } ?? text
    }

    /// Appends the encoding of `text` to `bytes`, growing the array geometrically (one exact-size
    /// `reserveCapacity` per field would reallocate for every field).
    static func append(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { source in
            let (length, changed) = measure(source)
            let needed = bytes.count + length
            if needed > bytes.capacity { bytes.reserveCapacity(max(needed, bytes.capacity * 2)) }
            guard changed else {
                bytes.append(contentsOf: source)
                return
            }
            let start = bytes.count
            bytes.append(contentsOf: repeatElement(0, count: length))
            bytes.withUnsafeMutableBufferPointer { buffer in
                _ = write(source, into: UnsafeMutableBufferPointer(rebasing: buffer[start...]))
            }
        }
    }
}
