/// Client-wide limits and the credentials each host may receive.
package struct HTTPClientConfiguration: Sendable, Hashable {
    /// Open connections across all hosts.
    package var maxConnections: Int
    /// Open connections to one host (HTTP/2 multiplexes many requests over one).
    package var maxConnectionsPerHost: Int
    package var connectTimeout: Duration
    /// The whole request, from connect to the last body byte; `nil` for no limit.
    package var timeout: Duration?
    /// Abort when fewer than `bytesPerSecond` arrive for `duration`; `nil` turns the check off.
    package var lowSpeedLimit: LowSpeedLimit?
    /// Largest response body accepted, counted after decompression.
    package var maxResponseSize: Int
    package var followRedirects: HTTPRedirectPolicy
    /// How long resolved names are cached.
    package var dnsCacheTimeout: Duration
    package var userAgent: String
    /// Offer HTTP/2 on TLS connections and multiplex requests over them.
    package var enableHTTP2: Bool
    /// Credentials and trust settings, each for the URLs it matches. The first matching rule applies.
    package var credentials: [HTTPCredentialRule]
    /// Asked before every new connection with the address DNS returned; `nil` allows all. How a worker
    /// keeps requests off internal addresses even when a permitted name resolves to one.
    package var connectionPolicy: HTTPConnectionPolicy?
    /// Whether responses are decoded as their `Content-Encoding` says (gzip, br, zstd: offered in
    /// `Accept-Encoding`). `false` hands over the bytes as sent: a stored result is compressed *as an object*
    /// (S3 keeps its `Content-Encoding`), is checked by the SHA-256 of those bytes, and is fetched in ranges, which
    /// no decoder can start in the middle of.
    package var decodesContentEncoding: Bool

    package struct LowSpeedLimit: Sendable, Hashable {
        package var bytesPerSecond: Int
        package var duration: Duration
        package init(bytesPerSecond: Int, duration: Duration) {
            self.bytesPerSecond = bytesPerSecond
            self.duration = duration
        }
    }

    package init(
        maxConnections: Int = 256,
        maxConnectionsPerHost: Int = 64,
        connectTimeout: Duration = .seconds(10),
        timeout: Duration? = .seconds(120),
        lowSpeedLimit: LowSpeedLimit? = LowSpeedLimit(bytesPerSecond: 1, duration: .seconds(60)),
        maxResponseSize: Int = 512 * 1024 * 1024,
        followRedirects: HTTPRedirectPolicy = .never,
        dnsCacheTimeout: Duration = .seconds(60),
        userAgent: String = "query-worker",
        enableHTTP2: Bool = true,
        credentials: [HTTPCredentialRule] = [],
        connectionPolicy: HTTPConnectionPolicy? = nil,
        decodesContentEncoding: Bool = true
    ) {
        self.maxConnections = maxConnections
        self.maxConnectionsPerHost = maxConnectionsPerHost
        self.connectTimeout = connectTimeout
        self.timeout = timeout
        self.lowSpeedLimit = lowSpeedLimit
        self.maxResponseSize = maxResponseSize
        self.followRedirects = followRedirects
        self.dnsCacheTimeout = dnsCacheTimeout
        self.userAgent = userAgent
        self.enableHTTP2 = enableHTTP2
        self.credentials = credentials
        self.connectionPolicy = connectionPolicy
        self.decodesContentEncoding = decodesContentEncoding
    }
}

/// Credentials and trust for the URLs one rule matches. Nothing here is ever applied to another URL, so a
/// password or client certificate can't reach a host it was not configured for.
package struct HTTPCredentialRule: Sendable, Hashable {
    /// Which URLs the rule covers.
    package enum Match: Sendable, Hashable {
        /// Scheme, host and port, like `https://gis.example.com` or `https://gis.example.com:6443`.
        case origin(String)
        /// URLs that start with this text on a path-segment boundary, like `https://gis.example.com/arcgis/`.
        case prefix(String)
    }

    package var match: Match
    /// PEM file of the CAs to trust for these URLs instead of the system's (a private CA, a self-signed server).
    package var caBundlePath: String?
    /// libcurl's `sha256//BASE64[;sha256//BASE64...]`: the server's public key must be one of these (a
    /// self-signed server trusted for this rule's URLs only). Checked in addition to the CA, unless
    /// ``caBundlePath`` is set too the system's CAs still apply.
    package var pinnedPublicKey: String?
    package var clientCertificate: HTTPClientCertificate?
    package var authentication: HTTPAuthentication?

    package init(
        match: Match,
        caBundlePath: String? = nil,
        pinnedPublicKey: String? = nil,
        clientCertificate: HTTPClientCertificate? = nil,
        authentication: HTTPAuthentication? = nil
    ) {
        self.match = match
        self.caBundlePath = caBundlePath
        self.pinnedPublicKey = pinnedPublicKey
        self.clientCertificate = clientCertificate
        self.authentication = authentication
    }
}

/// A TLS client certificate.
package enum HTTPClientCertificate: Sendable, Hashable {
    /// PEM certificate and key files; the key may be encrypted with a passphrase.
    case pem(certificatePath: String, keyPath: String, passphrase: String?)
    /// A PKCS#12 bundle (`.p12`, `.pfx`) holding certificate and key, with its password.
    case pkcs12(path: String, password: String?)
}

/// HTTP authentication that libcurl performs itself (including Digest's and NTLM's challenge rounds).
package struct HTTPAuthentication: Sendable, Hashable, CustomStringConvertible {
    package enum Scheme: String, Sendable, Hashable {
        case basic, digest, ntlm, negotiate
        /// Whatever the server offers, safest first.
        case any
    }

    package var scheme: Scheme
    package var username: String
    package var password: String

    package init(scheme: Scheme, username: String, password: String) {
        self.scheme = scheme
        self.username = username
        self.password = password
    }

    /// Never prints the password.
    package var description: String { "HTTPAuthentication(\(scheme.rawValue), user: \(username))" }
}
