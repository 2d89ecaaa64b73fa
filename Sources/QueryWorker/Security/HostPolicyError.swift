/// Why a URL, a connection or an `allowedHosts` entry was refused.
///
/// A struct with an extensible ``Code`` (new codes don't break callers' `switch`es) and a message a
/// person can act on. The codes are what the worker reports in its error messages.
struct HostPolicyError: Error, Sendable, Hashable, CustomStringConvertible {
    struct Code: Hashable, Sendable, CustomStringConvertible {
        let rawValue: String
        init(_ rawValue: String) { self.rawValue = rawValue }
        var description: String { rawValue }

        /// The URL's host (or the address it resolved to) is not allowed.
        static let hostNotAllowed = Code("host_not_allowed")
        /// The URL can't be used: malformed, not http/https, user info, ambiguous host.
        static let invalidURL = Code("invalid_url")
        /// An `allowedHosts` entry is malformed.
        static let invalidEntry = Code("invalid_allowed_host")
    }

    var code: Code
    var message: String
    /// The `allowedHosts` entry at fault, for ``Code/invalidEntry``.
    var entry: String?

    init(code: Code, message: String, entry: String? = nil) {
        self.code = code
        self.message = message
        self.entry = entry
    }

    var description: String { "HostPolicyError(\(code)): \(message)" }
}
