#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An IPv4 or IPv6 address, parsed strictly (`inet_pton`: dotted quads without leading zeros; RFC 4291
/// text for IPv6, no zone).
///
/// An IPv4-mapped IPv6 address (`::ffff:127.0.0.1`) is the IPv4 address it maps: it reaches the same
/// host, so it must match, and be refused, the same way.
struct IPAddress: Hashable, Sendable, CustomStringConvertible {
    enum Storage: Hashable, Sendable {
        case v4(UInt32)
        case v6(high: UInt64, low: UInt64)
    }

    let storage: Storage

    /// An address as stored, without the IPv4-mapped conversion (for masks).
    init(exactly storage: Storage) {
        self.storage = storage
    }

    init(storage: Storage) {
        if case .v6(let high, let low) = storage, high == 0, low >> 32 == 0xFFFF {
            self.storage = .v4(UInt32(truncatingIfNeeded: low))
        } else {
            self.storage = storage
        }
    }

    /// Parses `192.0.2.1` or `2001:db8::1` (no brackets); `nil` for anything else.
    init?(_ text: String) {
        if text.contains(":") {
            var address = in6_addr()
            guard inet_pton(AF_INET6, text, &address) == 1 else { return nil }
            let bytes = withUnsafeBytes(of: &address) { Array($0) }
            guard bytes.count == 16 else { return nil }
            let high = bytes[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            let low = bytes[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
            self.init(storage: .v6(high: high, low: low))
        } else {
            var address = in_addr()
            guard inet_pton(AF_INET, text, &address) == 1 else { return nil }
            self.init(storage: .v4(UInt32(bigEndian: address.s_addr)))
        }
    }

    var isIPv4: Bool {
        if case .v4 = storage { return true }
        return false
    }

    /// The address in its canonical text form (`inet_ntop`).
    var description: String {
        switch storage {
        case .v4(let value):
            return [24, 16, 8, 0].map { String((value >> UInt32($0)) & 0xFF) }.joined(separator: ".")
        case .v6(let high, let low):
            var address = in6_addr()
            withUnsafeMutableBytes(of: &address) { bytes in
                for index in 0..<8 {
                    bytes[index] = UInt8(truncatingIfNeeded: high >> UInt64(56 - 8 * index))
                    bytes[index + 8] = UInt8(truncatingIfNeeded: low >> UInt64(56 - 8 * index))
                }
            }
            var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
            guard inet_ntop(AF_INET6, &address, &text, socklen_t(text.count)) != nil else {
                return String(high, radix: 16) + ":" + String(low, radix: 16)
            }
            return String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
    }

    /// The IPv4 address embedded in a NAT64 (`64:ff9b::/96`) or 6to4 (`2002::/16`) address: traffic to
    /// these ends up at that IPv4 address, so it is checked like one.
    var embeddedIPv4: IPAddress? {
        guard case .v6(let high, let low) = storage else { return nil }
        if high == 0x0064_FF9B_0000_0000, low >> 32 == 0 {
            return IPAddress(storage: .v4(UInt32(truncatingIfNeeded: low)))
        }
        if high >> 48 == 0x2002 {
            return IPAddress(storage: .v4(UInt32(truncatingIfNeeded: high >> 16)))
        }
        return nil
    }
}

/// A CIDR range: `10.0.0.0/8`, `fc00::/7`; a single address is a range of one (`/32`, `/128`).
struct IPAddressRange: Hashable, Sendable, CustomStringConvertible {
    let base: IPAddress
    let prefixLength: Int

    /// A range, or `nil` when the prefix is too long for the family or `base` has bits set past it
    /// (`10.0.0.1/8` is almost always a typo for `10.0.0.0/8`).
    init?(base: IPAddress, prefixLength: Int) {
        guard prefixLength >= 0, prefixLength <= (base.isIPv4 ? 32 : 128) else { return nil }
        self.base = base
        self.prefixLength = prefixLength
        guard contains(base), Self.masked(base, prefixLength) == base else { return nil }
    }

    /// The range of exactly one address.
    init(single address: IPAddress) {
        base = address
        prefixLength = address.isIPv4 ? 32 : 128
    }

    func contains(_ address: IPAddress) -> Bool {
        switch (base.storage, address.storage) {
        case (.v4, .v4), (.v6, .v6):
            return Self.masked(address, prefixLength) == base
        default:
            return false
        }
    }

    var description: String { "\(base)/\(prefixLength)" }

    static func masked(_ address: IPAddress, _ prefix: Int) -> IPAddress {
        switch address.storage {
        case .v4(let value):
            let mask: UInt32 = prefix == 0 ? 0 : ~UInt32(0) << UInt32(32 - prefix)
            return IPAddress(exactly: .v4(value & mask))
        case .v6(let high, let low):
            let highMask: UInt64 = prefix >= 64 ? ~0 : (prefix == 0 ? 0 : ~UInt64(0) << UInt64(64 - prefix))
            let lowMask: UInt64 = prefix <= 64 ? 0 : (prefix == 128 ? ~0 : ~UInt64(0) << UInt64(128 - prefix))
            return IPAddress(exactly: .v6(high: high & highMask, low: low & lowMask))
        }
    }
}
