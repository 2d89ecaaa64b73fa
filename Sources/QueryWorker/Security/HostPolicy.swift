import CurlHTTP

/// Which hosts the worker may send requests to: the answer to "a request names any URL it likes".
///
/// Built from the `allowedHosts` setting: exact host names (`services.arcgis.com`), subdomain wildcards
/// (`*.arcgis.com`: any name ending in `.arcgis.com`, not `arcgis.com` itself), IPv4/IPv6 addresses and
/// CIDR ranges (`10.0.0.0/8`, `fc00::/7`), each optionally with `:port` (`[::1]:8080` for IPv6); an entry
/// without a port allows any port, one with a port only that port (a URL without one has its scheme's).
///
/// **Deny by default**: an empty list allows nothing. Two checks, both needed:
/// 1. ``check(url:)`` before a request: http/https only, no user info, and the host (with its port) must
///    match an entry. An IP-literal host must be inside a listed address or range; names match only name
///    entries, so `http://2130706433/` or `http://127.1/` never pass a name entry.
/// 2. ``connectionPolicy`` at connect time, with the address DNS returned: the host must match again,
///    and the address must not be special-purpose (loopback, private, link-local, CGNAT, multicast,
///    unspecified, reserved, unique-local, IPv4-mapped/NAT64/6to4 forms of those) unless a listed address
///    or range contains it. A permitted name that resolves to `10.1.2.3` is refused unless `10.0.0.0/8`
///    (or that address) is listed too: DNS rebinding can't turn an allowed name into an internal one.
struct HostPolicy: Sendable, Hashable {
    let entries: [Entry]

    /// Parses every entry; the first malformed one is an error naming it.
    init(allowedHosts: [String]) throws(HostPolicyError) {
        var entries: [Entry] = []
        for text in allowedHosts { entries.append(try Entry(parsing: text)) }
        self.entries = entries
    }

    init(entries: [Entry]) {
        self.entries = entries
    }

    /// What ``check(url:)`` read from a URL.
    struct Target: Hashable, Sendable {
        /// `http` or `https`.
        var scheme: String
        /// Lowercased, without a trailing dot; an IPv6 literal without brackets.
        var host: String
        /// The explicit port, or the scheme's default.
        var port: Int
        /// The host as an address, when it is an IP literal.
        var address: IPAddress?
    }

    /// Checks a URL before any request is made. Throws ``HostPolicyError/Code/invalidURL`` for a URL that
    /// can't be used and ``HostPolicyError/Code/hostNotAllowed`` for a host the entries don't allow.
    @discardableResult
    func check(url: String) throws(HostPolicyError) -> Target {
        let target = try URLTarget.parse(url)
        guard allowsHost(target.host, address: target.address, port: target.port) else {
            throw notAllowed("the host '\(target.host)' (port \(target.port))")
        }
        return target
    }

    /// Whether a connection may be opened to `address` (what DNS returned for `host`) on `port`; `nil`
    /// when it may, or the reason when it may not.
    func refusal(host: String, address: String, port: Int) -> HostPolicyError? {
        guard let ip = IPAddress(address) else {
            return HostPolicyError(code: .hostNotAllowed, message: "connection to '\(address)' refused: not an IP address")
        }
        let bare = host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
        let name = HostName.normalized(bare)
        guard allowsHost(name, address: IPAddress(name), port: port) else {
            return notAllowed("the host '\(name)' (port \(port))")
        }
        if addressListed(ip, port: port) { return nil }
        if let special = SpecialAddresses.classify(ip) {
            return HostPolicyError(
                code: .hostNotAllowed,
                message: "connection to \(ip) for '\(name)' refused: the address is \(special), which is allowed only "
                    + "when listed in allowedHosts"
            )
        }
        return nil
    }

    /// The check of ``refusal(host:address:port:)`` for `HTTPClientConfiguration.connectionPolicy`.
    var connectionPolicy: HTTPConnectionPolicy { connectionPolicy(reportingTo: nil) }

    /// The connect-time check, handing each refusal's reason (the address and the block it is in) to
    /// `report`, to log: the HTTP error only says that the policy refused. `report` runs on the HTTP
    /// client's loop thread; keep it short.
    func connectionPolicy(reportingTo report: (@Sendable (HostPolicyError) -> Void)?) -> HTTPConnectionPolicy {
        HTTPConnectionPolicy { [self] attempt in
            guard let refusal = refusal(host: attempt.host, address: attempt.address, port: attempt.port) else { return true }
            report?(refusal)
            return false
        }
    }

    // MARK: Matching

    private func allowsHost(_ host: String, address: IPAddress?, port: Int) -> Bool {
        if let address { return addressListed(address, port: port) }
        return entries.contains { entry in
            guard entry.port == nil || entry.port == port else { return false }
            switch entry.pattern {
            case .host(let name): return name == host
            case .subdomains(let suffix): return host.hasSuffix("." + suffix)
            case .addresses: return false
            }
        }
    }

    private func addressListed(_ address: IPAddress, port: Int) -> Bool {
        entries.contains { entry in
            guard entry.port == nil || entry.port == port, case .addresses(let range) = entry.pattern else { return false }
            return range.contains(address)
        }
    }

    private func notAllowed(_ what: String) -> HostPolicyError {
        let why = entries.isEmpty
            ? "no hosts are allowed (the allowedHosts setting is empty)"
            : "it is not in the worker's allowedHosts"
        return HostPolicyError(code: .hostNotAllowed, message: "\(what) is not allowed: \(why)")
    }
}
