import FeatureQuerySupport

/// Short JSON fragments (quoted values, `"key":` prefixes) packed into one byte array, so that writing
/// one is a bounds lookup and a copy: no per-fragment array to retain and release in hot loops.
struct ByteTable: Sendable {
    private let bytes: [UInt8]
    private let starts: [Int]

    init(_ fragments: [[UInt8]]) {
        var bytes: [UInt8] = []
        var starts: [Int] = [0]
        for fragment in fragments {
            bytes.append(contentsOf: fragment)
            starts.append(bytes.count)
        }
        self.bytes = bytes
        self.starts = starts
    }

    /// A table of the strings as quoted JSON string literals.
    init(quoting strings: [String]) {
        self.init(strings.map { text in
            var json = JSONWriter(capacity: text.utf8.count + 2)
            json.string(text)
            return json.bytes
        })
    }

    var count: Int { starts.count - 1 }

    @inline(__always)
    func write(_ position: Int, to json: inout JSONWriter) {
        let start = starts[position]
        let end = starts[position + 1]
        bytes.withUnsafeBufferPointer { json.raw(UnsafeBufferPointer(rebasing: $0[start..<end])) }
    }
}
