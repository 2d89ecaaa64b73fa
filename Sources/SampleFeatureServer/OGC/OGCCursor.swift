import FeatureQuerySupport

/// The opaque `cursor` of the `cursor` quirk: the offset, scrambled so that clients can't read it as one.
enum OGCCursor {
    private static let key: UInt64 = 0x5EED_CAFE_F00D_BEEF

    static func token(offset: Int) -> String {
        let mixed = UInt64(offset) ^ key
        return "c" + String(mixed, radix: 36) + "x" + String(SplitMix64.mix(UInt64(offset)) % 1_296, radix: 36)
    }

    static func offset(_ token: String) -> Int? {
        guard token.hasPrefix("c"), let separator = token.firstIndex(of: "x") else { return nil }
        guard let mixed = UInt64(token[token.index(after: token.startIndex)..<separator], radix: 36) else { return nil }
        let value = mixed ^ key
        guard value <= UInt64(Int32.max), token == Self.token(offset: Int(value)) else { return nil }
        return Int(value)
    }
}
