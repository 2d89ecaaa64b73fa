/// Finds the name a person most likely meant, for "did you mean" hints.
enum NameSuggestion {
    /// The candidate closest to `name` (ignoring letter case) by edit distance, or one that contains it or
    /// is contained in it; nil when nothing is close enough to be a plausible typo.
    static func closest(to name: String, among candidates: [String]) -> String? {
        let target = Array(name.lowercased().unicodeScalars.prefix(256))
        guard !target.isEmpty else { return nil }
        let threshold = max(1, min(3, target.count / 3))
        var best: (name: String, distance: Int)? = nil
        for candidate in candidates {
            let other = Array(candidate.lowercased().unicodeScalars.prefix(256))
            if abs(other.count - target.count) > threshold, !contains(other, target), !contains(target, other) {
                continue
            }
            var distance = editDistance(target, other)
            if distance > threshold, min(other.count, target.count) >= 3,
                contains(other, target) || contains(target, other)
            {
                distance = threshold
            }
            if distance <= threshold, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.name
    }

    /// Levenshtein distance, two rows.
    static func editDistance(_ a: [Unicode.Scalar], _ b: [Unicode.Scalar]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let substitution = previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)
                current[j] = min(substitution, previous[j] + 1, current[j - 1] + 1)
            }
            swap(&previous, &current)
        }
        return previous[b.count]
    }

    private static func contains(_ haystack: [Unicode.Scalar], _ needle: [Unicode.Scalar]) -> Bool {
        guard !needle.isEmpty, needle.count <= haystack.count else { return false }
        for start in 0...(haystack.count - needle.count) where haystack[start..<start + needle.count].elementsEqual(needle) {
            return true
        }
        return false
    }

    /// A list of names for a message, cut after `limit`.
    static func list(_ names: [String], limit: Int = 25) -> String {
        let shown = names.prefix(limit).joined(separator: ", ")
        return names.count > limit ? shown + ", … (\(names.count) in all)" : shown
    }
}
