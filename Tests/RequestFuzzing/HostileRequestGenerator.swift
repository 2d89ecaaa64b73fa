import FeatureQuerySupport
import FeatureGeometry

/// Hostile messages for the requests topic, seeded and reproducible: the same seeds and seed give the same
/// messages in the same order, in the CI test, the decoder's scale run and the live run alike.
///
/// Most messages start from a valid contract example and are mutated (bytes, values, fields, numbers,
/// nesting, string sizes, UTF-8, shape); some are random bytes; a few stay valid, so the accepting paths
/// run too.
package struct HostileRequestGenerator {
    /// The valid messages mutations start from, as bytes and parsed.
    private let seeds: [(bytes: [UInt8], document: ParsedJSON)]
    private var random: SplitMix64
    /// When set, every message gets `requestId` (and `taskId`, where it has one) `"<prefix>-<index>"` before
    /// it is mutated, so a live run can tell the outcomes of messages apart.
    private let uniqueIdPrefix: String?
    /// The largest value generated, in bytes (a live run keeps under the broker's `message.max.bytes`);
    /// longer values are cut, which keeps them hostile.
    private let maxValueBytes: Int
    /// How many messages were generated so far: the next one's index.
    package private(set) var index = 0

    /// The share of each kind, out of 100.
    static let weights: [(HostileMessage.Kind, Int)] = [
        (.valid, 5), (.byteMutation, 25), (.valueMutation, 22), (.fieldSurgery, 10), (.hugeNumber, 7), (.deepNesting, 5),
        (.longString, 4), (.badUTF8, 8), (.wrongShape, 4), (.randomBytes, 10),
    ]

    /// A generator mutating `seeds` (valid JSON objects: the contract's examples) from `seed`.
    package init(
        seeds: [[UInt8]], seed: UInt64, uniqueIdPrefix: String? = nil, maxValueBytes: Int = 2_100_000
    ) throws {
        self.seeds = try seeds.map { ($0, try ParsedJSON(parsing: $0)) }
        guard !self.seeds.isEmpty else { throw SeedError(description: "no seeds to mutate") }
        random = SplitMix64(seed: seed)
        self.uniqueIdPrefix = uniqueIdPrefix
        self.maxValueBytes = maxValueBytes
    }

    /// The next message.
    package mutating func next() -> HostileMessage {
        defer { index += 1 }
        let kind = pickKind()
        let (base, id) = baseDocument()
        var value: [UInt8]?
        switch kind {
        case .valid: value = base.document.fuzzBytes
        case .byteMutation: value = ByteMutations.mutate(uniqueIdPrefix == nil ? base.bytes : base.document.fuzzBytes, &random)
        case .valueMutation:
            var document = base.document
            for _ in 0..<Int.random(in: 1...2, using: &random) { document = ValueMutations.mutate(document, &random) }
            value = document.fuzzBytes
        case .fieldSurgery: value = StructureMutations.fieldSurgery(base.document, &random)
        case .hugeNumber: value = StructureMutations.hugeNumber(base.document, &random)
        case .deepNesting: value = StructureMutations.deepNesting(base.document, &random)
        case .longString: value = StructureMutations.longString(base.document, &random)
        case .badUTF8: value = StructureMutations.badUTF8(base.document, &random)
        case .wrongShape: value = StructureMutations.wrongShape(base.document, &random)
        case .randomBytes:
            value = ByteMutations.randomBytes(maxLength: Bool.random(using: &random) ? 64 : 2_048, &random)
        }
        if let bytes = value, bytes.count > maxValueBytes { value = Array(bytes.prefix(maxValueBytes)) }
        return HostileMessage(kind: kind, value: value, key: pickKey(id: id), intendedRequestId: id)
    }

    private mutating func pickKind() -> HostileMessage.Kind {
        var roll = Int.random(in: 0..<100, using: &random)
        for (kind, weight) in Self.weights {
            if roll < weight { return kind }
            roll -= weight
        }
        return .randomBytes
    }

    /// A seed, with this message's unique ids when asked for; the id is the requestId (or a cancel's taskId).
    private mutating func baseDocument() -> (seed: (bytes: [UInt8], document: ParsedJSON), id: String?) {
        let seed = seeds[Int.random(in: 0..<seeds.count, using: &random)]
        guard let prefix = uniqueIdPrefix, case .object(var members) = seed.document else { return (seed, nil) }
        let id = "\(prefix)-\(index)"
        if members["requestId"] != nil { members["requestId"] = .string(id) }
        if members["taskId"] != nil { members["taskId"] = .string(id) }
        let document = ParsedJSON.object(members)
        return ((document.fuzzBytes, document), id)
    }

    /// Mostly no key; sometimes the message's own id (a well-keyed producer), sometimes another text or
    /// bytes that are not UTF-8 (`key_mismatch` when the rest is valid).
    private mutating func pickKey(id: String?) -> [UInt8]? {
        switch Int.random(in: 0..<100, using: &random) {
        case 0..<85: return nil
        case 85..<93: return Array((id ?? "r-1").utf8)
        case 93..<97: return Array("other-task".utf8)
        default: return (0..<Int.random(in: 0...16, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
        }
    }
}
