/// Addresses a worker must not reach unless the operator lists them: loopback, private networks,
/// link-local (cloud metadata services live at 169.254.169.254), shared CGNAT space, multicast,
/// "this network"/unspecified and reserved space, and their IPv6 counterparts.
///
/// A request that names a permitted host must still not end up at one of these: DNS can point any
/// name at `127.0.0.1`. NAT64 (`64:ff9b::/96`) and 6to4 (`2002::/16`) addresses are judged by the IPv4
/// address they embed; IPv4-mapped ones (`::ffff:a.b.c.d`) are IPv4 addresses already (see ``IPAddress``).
enum SpecialAddresses {
    struct Block {
        let range: IPAddressRange
        let name: String
    }

    static let blocks: [Block] = [
        block("0.0.0.0", 8, "\"this network\" (includes the unspecified address)"),
        block("10.0.0.0", 8, "private"),
        block("100.64.0.0", 10, "shared address space (carrier-grade NAT)"),
        block("127.0.0.0", 8, "loopback"),
        block("169.254.0.0", 16, "link-local (cloud metadata)"),
        block("172.16.0.0", 12, "private"),
        block("192.0.0.0", 24, "IETF protocol assignments"),
        block("192.168.0.0", 16, "private"),
        block("198.18.0.0", 15, "benchmarking"),
        block("224.0.0.0", 4, "multicast"),
        block("240.0.0.0", 4, "reserved (includes broadcast)"),
        block("::", 128, "unspecified"),
        block("::1", 128, "loopback"),
        block("::", 96, "IPv4-compatible (deprecated)"),
        block("64:ff9b:1::", 48, "local-use NAT64"),
        block("100::", 64, "discard-only"),
        block("fc00::", 7, "unique local"),
        block("fe80::", 10, "link-local"),
        block("fec0::", 10, "site-local (deprecated)"),
        block("ff00::", 8, "multicast"),
    ]

    /// The special block `address` falls in, as "loopback (127.0.0.0/8)"; `nil` for a public address.
    static func classify(_ address: IPAddress) -> String? {
        if let embedded = address.embeddedIPv4, let inner = classify(embedded) {
            return "\(inner) embedded in \(address)"
        }
        guard let block = blocks.first(where: { $0.range.contains(address) }) else { return nil }
        return "\(block.name) (\(block.range))"
    }

    private static func block(_ base: String, _ prefix: Int, _ name: String) -> Block {
        // The table is constant and checked by a test; an entry that failed to parse would match nothing.
        let address = IPAddress(base) ?? IPAddress(storage: .v4(0))
        let range = IPAddressRange(base: address, prefixLength: prefix) ?? IPAddressRange(single: address)
        return Block(range: range, name: name)
    }
}
