/// A compiled `LIKE` pattern, matched without backtracking blow-up.
///
/// The classic two-pointer wildcard algorithm: on a mismatch it returns only to the most recent `%`, so a
/// match costs at most O(text × pattern) steps, never exponential. It works on UTF-8 bytes; `_` skips one
/// whole Unicode scalar, so `_` matches one character of any script. Matching is case-sensitive.
struct LikeMatcher: Sendable {
    private enum Element: Equatable, Sendable {
        case byte(UInt8)
        case anyCharacter
        case anyRun
    }

    private let elements: [Element]

    init(pattern: String, escape: Unicode.Scalar?) {
        var elements: [Element] = []
        var iterator = pattern.unicodeScalars.makeIterator()
        while let scalar = iterator.next() {
            if let escape, scalar == escape {
                if let next = iterator.next() { elements.append(contentsOf: String(next).utf8.map(Element.byte)) }
            } else if scalar == "%" {
                if elements.last != .anyRun { elements.append(.anyRun) }
            } else if scalar == "_" {
                elements.append(.anyCharacter)
            } else {
                elements.append(contentsOf: String(scalar).utf8.map(Element.byte))
            }
        }
        self.elements = elements
    }

    func matches(_ text: String) -> Bool {
        if let result = text.utf8.withContiguousStorageIfAvailable({ match($0) }) { return result }
        return Array(text.utf8).withUnsafeBufferPointer { match($0) }
    }

    private func match(_ text: UnsafeBufferPointer<UInt8>) -> Bool {
        let count = text.count
        var textIndex = 0
        var patternIndex = 0
        var runPatternIndex = -1
        var runTextIndex = 0
        while textIndex < count {
            if patternIndex < elements.count {
                switch elements[patternIndex] {
                case .byte(let byte):
                    if text[textIndex] == byte {
                        textIndex += 1
                        patternIndex += 1
                        continue
                    }
                case .anyCharacter:
                    textIndex = min(count, textIndex + Self.scalarLength(text[textIndex]))
                    patternIndex += 1
                    continue
                case .anyRun:
                    runPatternIndex = patternIndex
                    runTextIndex = textIndex
                    patternIndex += 1
                    continue
                }
            }
            guard runPatternIndex >= 0 else { return false }
            runTextIndex = min(count, runTextIndex + Self.scalarLength(text[runTextIndex]))
            textIndex = runTextIndex
            patternIndex = runPatternIndex + 1
        }
        while patternIndex < elements.count, elements[patternIndex] == .anyRun { patternIndex += 1 }
        return patternIndex == elements.count
    }

    @inline(__always)
    private static func scalarLength(_ lead: UInt8) -> Int {
        lead < 0xC0 ? 1 : lead < 0xE0 ? 2 : lead < 0xF0 ? 3 : 4
    }
}
