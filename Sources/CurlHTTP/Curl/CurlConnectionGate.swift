internal import CCurl
internal import CCurlShims
#if canImport(Glibc)
import Glibc
#endif

extension RequestValidation.Target {
    /// The host as the policy sees it: an IPv6 literal without its brackets (`URLComponents` keeps them).
    var bareHost: String {
        // Most hosts are names: one byte tells (nothing canonically equivalent to "[" starts otherwise).
        guard host.utf8.first == UInt8(ascii: "[") else { return host }
        return host.hasPrefix("[") && host.hasSuffix("]") ? String(host.dropFirst().dropLast()) : host
    }
}

/// The connection policy's hook into libcurl: `CURLOPT_OPENSOCKETFUNCTION`, which libcurl calls instead
/// of `socket(2)` for each address it is about to connect to. It is the last point before any packet
/// leaves, and the first that knows the resolved address. Returning `CURL_SOCKET_BAD` makes libcurl give
/// up that address (`CURLE_COULDNT_CONNECT` when none is left), which libcurl documents as the way to
/// block addresses.
extension CurlTransfer {
    func installConnectionGate(_ handle: UnsafeMutableRawPointer, opaque: UnsafeMutableRawPointer) throws(HTTPError) {
        guard settings.connectionPolicy != nil else { return }
        guard qw_curl_easy_setopt_opensocket_cb(handle, Self.openSocketCallback) == CURLE_OK else {
            throw HTTPError(code: .other, message: "libcurl refused the socket-open callback")
        }
        try CurlEasy(handle: handle).set(CURLOPT_OPENSOCKETDATA, pointer: opaque)
    }

    static let openSocketCallback: @convention(c) (
        UnsafeMutableRawPointer?, curlsocktype, UnsafeMutablePointer<curl_sockaddr>?
    ) -> curl_socket_t = { opaque, _, address in
        guard let opaque, let address else { return CURL_SOCKET_BAD }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(opaque).takeUnretainedValue()
        return transfer.openSocket(address)
    }

    /// Asks the policy, then opens the socket as libcurl would have (libcurl sets it non-blocking and
    /// closes it).
    private func openSocket(_ address: UnsafeMutablePointer<curl_sockaddr>) -> curl_socket_t {
        if let policy = settings.connectionPolicy {
            guard let (ip, port) = Self.numericAddress(address) else {
                refusedConnection = refusedConnection ?? "an address of family \(address.pointee.family)"
                return CURL_SOCKET_BAD
            }
            let attempt = HTTPConnectionAttempt(host: settings.host, address: ip, port: port)
            guard policy.allows(attempt) else {
                refusedConnection = refusedConnection ?? "\(ip) port \(port)"
                return CURL_SOCKET_BAD
            }
        }
        return socket(address.pointee.family, address.pointee.socktype, address.pointee.protocol)
    }

    /// The address and port of an IPv4 or IPv6 `curl_sockaddr` as text; `nil` for other families.
    private static func numericAddress(_ address: UnsafeMutablePointer<curl_sockaddr>) -> (String, Int)? {
        guard let offset = MemoryLayout<curl_sockaddr>.offset(of: \curl_sockaddr.addr) else { return nil }
        // libcurl allocates room for any sockaddr behind `addr`, and `addrlen` says how much is filled.
        let raw = UnsafeRawPointer(address) + offset
        let length = Int(address.pointee.addrlen)
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        let port: UInt16
        switch address.pointee.family {
        case AF_INET:
            guard length >= MemoryLayout<sockaddr_in>.size else { return nil }
            var inet = raw.loadUnaligned(as: sockaddr_in.self)
            guard inet_ntop(AF_INET, &inet.sin_addr, &text, socklen_t(text.count)) != nil else { return nil }
            port = UInt16(bigEndian: inet.sin_port)
        case AF_INET6:
            guard length >= MemoryLayout<sockaddr_in6>.size else { return nil }
            var inet6 = raw.loadUnaligned(as: sockaddr_in6.self)
            guard inet_ntop(AF_INET6, &inet6.sin6_addr, &text, socklen_t(text.count)) != nil else { return nil }
            port = UInt16(bigEndian: inet6.sin6_port)
        default:
            return nil
        }
        let ip = text.withUnsafeBufferPointer { buffer in
            String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        }
        return (ip, Int(port))
    }
}
