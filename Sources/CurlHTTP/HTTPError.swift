/// An error from the HTTP client.
///
/// A struct with an extensible ``Code`` (new codes don't break callers' `switch`es), a message a person
/// can act on, a retryable flag, and libcurl's own code and message when libcurl raised it. Callers match
/// codes; only this package mints errors and codes.
package struct HTTPError: Error, Sendable, CustomStringConvertible {
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The request was malformed; nothing was sent.
        package static let invalidRequest = Code("invalid_request")
        /// A configured credential (certificate, key, CA bundle) could not be used; nothing was sent.
        package static let credential = Code("credential")
        /// A connect, total or low-speed timeout passed.
        package static let timeout = Code("timeout")
        /// The host's name could not be resolved.
        package static let dns = Code("dns")
        /// No connection could be made.
        package static let connect = Code("connect")
        /// TLS failed: the peer was not trusted, or the handshake failed.
        package static let tls = Code("tls")
        /// The connection broke while sending or receiving.
        package static let network = Code("network")
        /// The response body was larger than allowed.
        package static let tooLarge = Code("too_large")
        /// The server broke the protocol (bad framing, bad encoding, HTTP/2 errors).
        package static let `protocol` = Code("protocol")
        /// A redirect was refused (it left the origin, or there were too many).
        package static let redirect = Code("redirect")
        /// The transfer was cancelled (a task that awaits a response throws `CancellationError` instead).
        package static let cancelled = Code("cancelled")
        /// The client was shut down.
        package static let shutdown = Code("shutdown")
        /// The client's ``HTTPConnectionPolicy`` refused every address of the host; nothing was sent.
        package static let connectionRefusedByPolicy = Code("connection_refused_by_policy")
        /// Any other libcurl failure.
        package static let other = Code("other")
    }

    package var code: Code
    package var message: String
    package var isRetryable: Bool
    /// libcurl's `CURLcode`, when libcurl reported the error.
    package var curlCode: Int32?
    /// libcurl's own description of ``curlCode``.
    package var curlMessage: String?

    package init(code: Code, message: String, isRetryable: Bool = false, curlCode: Int32? = nil, curlMessage: String? = nil) {
        self.code = code
        self.message = message
        self.isRetryable = isRetryable
        self.curlCode = curlCode
        self.curlMessage = curlMessage
    }

    package var description: String {
        var text = "HTTPError(\(code)): \(message)"
        if let curlCode { text += " [curl \(curlCode)\(curlMessage.map { ": \($0)" } ?? "")]" }
        return text
    }

    static func invalid(_ message: String) -> HTTPError { HTTPError(code: .invalidRequest, message: message) }
}
