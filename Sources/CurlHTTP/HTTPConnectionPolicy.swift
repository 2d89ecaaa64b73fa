/// A connection the client is about to open: the host the URL names and the address DNS gave for it.
package struct HTTPConnectionAttempt: Sendable, Hashable, CustomStringConvertible {
    /// The URL's host, lowercased (an IPv6 literal without brackets).
    package var host: String
    /// The numeric address about to be connected to: `93.184.216.34`, `2606:2800:220:1::1`.
    package var address: String
    /// The TCP port about to be connected to.
    package var port: Int

    package init(host: String, address: String, port: Int) {
        self.host = host
        self.address = address
        self.port = port
    }

    package var description: String { "\(host) at \(address) port \(port)" }
}

/// Decides whether the client may open a connection, seeing the address that DNS actually returned.
///
/// Checking a URL's host name before a request is not enough to keep requests away from internal
/// addresses: the name may resolve (or later re-resolve: DNS rebinding) to `127.0.0.1` or `10.x`. The
/// policy runs inside libcurl's socket-open step for every new connection (each address tried, with happy
/// eyeballs), *before* the socket is created, so a refused address never sees a SYN, let alone a byte.
/// Reused connections were checked when they were opened.
///
/// When the policy refuses and no other address of the host connects, the request fails with
/// ``HTTPError/Code/connectionRefusedByPolicy``. The closure runs on the client's loop thread: keep it
/// fast and non-blocking. Through a proxy (libcurl honours `http_proxy`/`HTTPS_PROXY`), the address is the
/// proxy's.
///
/// Two policies are equal only if they are the same instance (closures can't be compared), which keeps
/// ``HTTPClientConfiguration`` `Hashable`.
package struct HTTPConnectionPolicy: Sendable, Hashable {
    private final class Box: Sendable {
        let decide: @Sendable (HTTPConnectionAttempt) -> Bool
        init(_ decide: @escaping @Sendable (HTTPConnectionAttempt) -> Bool) { self.decide = decide }
    }

    private let box: Box

    /// A policy that allows a connection when `allow` returns `true`.
    package init(_ allow: @escaping @Sendable (HTTPConnectionAttempt) -> Bool) {
        self.box = Box(allow)
    }

    /// Whether the connection may be opened.
    package func allows(_ attempt: HTTPConnectionAttempt) -> Bool { box.decide(attempt) }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.box === rhs.box }
    package func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(box)) }
}
