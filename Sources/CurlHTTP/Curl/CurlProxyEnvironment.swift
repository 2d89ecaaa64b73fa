#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether libcurl could take a proxy from the environment for an http or https transfer.
///
/// CurlHTTP sets no proxy option of its own, so libcurl reads `http_proxy`, `https_proxy`/`HTTPS_PROXY`
/// and `all_proxy`/`ALL_PROXY` (and `no_proxy`) for every transfer. With such a variable set, a client
/// keeps doing exactly that and sends whole URLs (``CurlOriginForm`` is off). Without one, the client
/// decides "no proxy" once, when it is created, and sets `CURLOPT_PROXY` and `CURLOPT_NOPROXY` to "" so that
/// libcurl decides the same for the client's lifetime (and reads no variable per transfer): a process that
/// sets a proxy variable after creating a client (setenv while threads run is undefined behaviour in C
/// anyway) must create a new client to use the proxy.
///
/// Conservative on purpose: `HTTP_PROXY` counts although libcurl ignores it for http, and a variable set
/// to "" counts although libcurl ignores empty ones.
enum CurlProxyEnvironment {
    static let variables = ["http_proxy", "HTTP_PROXY", "https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"]

    /// Whether any of ``variables`` is set, `isSet` telling for one name.
    static func mayUseProxy(isSet: (String) -> Bool) -> Bool {
        variables.contains(where: isSet)
    }

    /// ``mayUseProxy(isSet:)`` for this process's environment now.
    static var processMayUseProxy: Bool {
        mayUseProxy { getenv($0) != nil }
    }
}
