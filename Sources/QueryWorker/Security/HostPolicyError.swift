/// Why a URL, a connection or an `allowedHosts` entry was refused.
///
/// A struct with an extensible ``Code`` (new codes don't break callers' `switch`es) and a message a
/// person can act on. The codes are what the worker reports in its error messages.
public struct HostPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    public struct Code: Hashable, Sendable, CustomStringConvertible {
        public let rawValue: String
        public init(_ rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// The URL's host (or the address it resolved to) is not allowed.
        public static let hostNotAllowed = Code("host_not_allowed")
        /// The URL can't be used: malformed, not http/https, user info, ambiguous host.
        public static let invalidURL = Code("invalid_url")
        /// An `allowedHosts` entry is malformed.
        public static let invalidEntry = Code("invalid_allowed_host")
    }

    public var code: Code
    public var message: String
    /// The `allowedHosts` entry at fault, for ``Code/invalidEntry``.
    public var entry: String?

    public init(code: Code, message: String, entry: String? = nil) {
        self.code = code
        self.message = message
        self.entry = entry
    }

    public var description: String { "HostPolicyError(\(code)): \(message)" }
}
