/// An error from the HTTP client.
///
/// A struct with an extensible ``Code`` (new codes don't break callers' `switch`es), a message a person
/// can act on, a retryable flag, and libcurl's own code and message when libcurl raised it. Callers match
/// codes; only this package mints errors and codes.
public struct HTTPError: Error, Sendable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The request was malformed; nothing was sent.
        public static let invalidRequest = Code("invalid_request")
        /// A configured credential (certificate, key, CA bundle) could not be used; nothing was sent.
        public static let credential = Code("credential")
        /// A connect, total or low-speed timeout passed.
        public static let timeout = Code("timeout")
        /// The host's name could not be resolved.
        public static let dns = Code("dns")
        /// No connection could be made.
        public static let connect = Code("connect")
        /// TLS failed: the peer was not trusted, or the handshake failed.
        public static let tls = Code("tls")
        /// The connection broke while sending or receiving.
        public static let network = Code("network")
        /// The response body was larger than allowed.
        public static let tooLarge = Code("too_large")
        /// The server broke the protocol (bad framing, bad encoding, HTTP/2 errors).
        public static let `protocol` = Code("protocol")
        /// A redirect was refused (it left the origin, or there were too many).
        public static let redirect = Code("redirect")
        /// The transfer was cancelled (a task that awaits a response throws `CancellationError` instead).
        public static let cancelled = Code("cancelled")
        /// The client was shut down.
        public static let shutdown = Code("shutdown")
        /// The client's ``HTTPConnectionPolicy`` refused every address of the host; nothing was sent.
        public static let connectionRefusedByPolicy = Code("connection_refused_by_policy")
        /// Any other libcurl failure.
        public static let other = Code("other")
    }

    public var code: Code
    public var message: String
    public var isRetryable: Bool
    /// libcurl's `CURLcode`, when libcurl reported the error.
    public var curlCode: Int32?
    /// libcurl's own description of ``curlCode``.
    public var curlMessage: String?

    package init(code: Code, message: String, isRetryable: Bool = false, curlCode: Int32? = nil, curlMessage: String? = nil) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable
        self.curlCode = curlCode
        self.curlMessage = curlMessage
    }

    public var description: String {
        var text = "HTTPError(\(code)): \(message)"
        if let curlCode { text += " [curl \(curlCode)\(curlMessage.map { ": \($0)" } ?? "")]" }
        return text
    }

    static func invalid(_ message: String) -> HTTPError { HTTPError(code: .invalidRequest, message: message) }
}
