/// Cuts a stored object's decoded bytes into its items (each feature's or id's JSON) as they arrive, cut anywhere,
/// without parsing the items: a layer of millions of features is read one item at a time.
///
/// NDJSON: one item per line (blank lines skipped). GeoJSON: the elements of the document's array: the document
/// itself when it is an array (ids), else its top-level `features` member (or `ids`, `objectIds`, `featureIds`).
struct StoredItemSplitter {
    enum Framing: Sendable {
        case lines
        case document
    }

    /// Why the bytes are not a framing of items.
    struct Failure: Error {
        var message: String
    }

    private let framing: Framing
    private var item: [UInt8] = []
    private var inItem = false
    // The document's scanner: container depth, string state, the array whose elements are the items.
    private var depth = 0
    private var inString = false
    private var escaped = false
    private var itemsDepth: Int?
    private var itemsDone = false
    private var key: [UInt8] = []
    private var lastKey: [UInt8] = []
    private var readingKey = false
    private(set) var count = 0

    /// The top-level members whose array holds the items.
    private static let itemMembers: Set<[UInt8]> = [Array("features".utf8), Array("ids".utf8), Array("objectIds".utf8), Array("featureIds".utf8)]

    init(_ framing: Framing) {
        self.framing = framing
    }

    /// Takes the next decoded bytes; hands each item they complete to `emit`, in order.
    mutating func consume(_ bytes: some Collection<UInt8>, emit: (ArraySlice<UInt8>) -> Void) throws(Failure) {
        switch framing {
        case .lines:
            for byte in bytes {
                if byte == UInt8(ascii: "\n") { endLine(emit) } else { item.append(byte) }
            }
        case .document:
            for byte in bytes { try scan(byte, emit) }
        }
    }

    /// Ends the bytes: a last line without its newline is an item; a document must be complete.
    mutating func finish(emit: (ArraySlice<UInt8>) -> Void) throws(Failure) {
        switch framing {
        case .lines:
            endLine(emit)
        case .document:
            guard itemsDepth != nil else { throw Failure(message: "holds no array of features or ids") }
            guard itemsDone, depth == 0, !inString else { throw Failure(message: "ends inside its JSON document") }
        }
    }

    private mutating func endLine(_ emit: (ArraySlice<UInt8>) -> Void) {
        var line = item[...]
        while let last = line.last, last == UInt8(ascii: "\r") || last == UInt8(ascii: " ") || last == UInt8(ascii: "\t") {
            line = line.dropLast()
        }
        if line.contains(where: { $0 != UInt8(ascii: " ") && $0 != UInt8(ascii: "\t") }) {
            count += 1
            emit(line)
        }
        item.removeAll(keepingCapacity: true)
    }

    private mutating func scan(_ byte: UInt8, _ emit: (ArraySlice<UInt8>) -> Void) throws(Failure) {
        if inString {
            if inItem { item.append(byte) }
            if escaped {
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if byte == UInt8(ascii: "\"") {
                inString = false
                if readingKey {
                    lastKey = key
                    readingKey = false
                }
                return
            }
            if readingKey { key.append(byte) }
            return
        }
        if let itemsDepth, !itemsDone, depth >= itemsDepth {
            try scanItems(byte, itemsDepth: itemsDepth, emit)
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            inString = true
            readingKey = depth == 1
            key.removeAll(keepingCapacity: true)
        case UInt8(ascii: "{"):
            depth += 1
        case UInt8(ascii: "["):
            if itemsDepth == nil, depth == 0 || (depth == 1 && Self.itemMembers.contains(lastKey)) { itemsDepth = depth + 1 }
            depth += 1
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            depth -= 1
            guard depth >= 0 else { throw Failure(message: "closes more JSON containers than it opens") }
        default:
            break
        }
    }

    /// A byte inside the items' array: an element starts, grows, or ends.
    private mutating func scanItems(_ byte: UInt8, itemsDepth: Int, _ emit: (ArraySlice<UInt8>) -> Void) throws(Failure) {
        let isOpen = byte == UInt8(ascii: "{") || byte == UInt8(ascii: "[")
        let isClose = byte == UInt8(ascii: "}") || byte == UInt8(ascii: "]")
        if depth > itemsDepth {
            item.append(byte)
            if byte == UInt8(ascii: "\"") { inString = true }
            if isOpen { depth += 1 }
            if isClose {
                depth -= 1
                if depth == itemsDepth { endItem(emit) }
            }
            return
        }
        switch byte {
        case UInt8(ascii: " "), UInt8(ascii: "\n"), UInt8(ascii: "\r"), UInt8(ascii: "\t"), UInt8(ascii: ","):
            if inItem { endItem(emit) }
        case UInt8(ascii: "]"):
            if inItem { endItem(emit) }
            depth -= 1
            itemsDone = true
        case UInt8(ascii: "}"):
            throw Failure(message: "closes an object inside its array of items")
        default:
            inItem = true
            item.append(byte)
            if byte == UInt8(ascii: "\"") { inString = true }
            if isOpen { depth += 1 }
        }
    }

    private mutating func endItem(_ emit: (ArraySlice<UInt8>) -> Void) {
        count += 1
        emit(item[...])
        item.removeAll(keepingCapacity: true)
        inItem = false
    }
}
