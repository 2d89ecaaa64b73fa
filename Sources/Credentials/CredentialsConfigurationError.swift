/// Why the credentials file, one credential in it, or one of its secrets could not be used.
///
/// A struct with an extensible ``Code`` and a message a person can act on. The message names the credential
/// (or its position when the name itself is at fault) and the field, and never quotes a value read from the
/// file, a secret file or the environment: an operator who put a password in the wrong field must not find it
/// in the logs. That is why even a malformed scope or an unknown kind is described, not echoed.
package struct CredentialsConfigurationError: Error, Sendable, Hashable, CustomStringConvertible {
    package struct Code: Hashable, Sendable, CustomStringConvertible {
        package let rawValue: String
        package init(_ rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// The file can't be read, is not JSON, or is not `{"credentials": [...]}`.
        package static let invalidFile = Code("invalid_credentials_file")
        /// A name that is not 1–64 characters of `A-Z a-z 0-9 _ . -`.
        package static let invalidName = Code("invalid_credential_name")
        /// Two credentials with one name.
        package static let duplicateName = Code("duplicate_credential_name")
        /// A `kind` that is not one of ``CredentialKind``.
        package static let unknownKind = Code("unknown_credential_kind")
        /// A field the credential's kind does not have (a typo must not silently leave a default in place).
        package static let unknownField = Code("unknown_credential_field")
        /// A field the kind needs is absent.
        package static let missingField = Code("missing_credential_field")
        /// A field of the wrong type, out of range, or not one of its allowed values.
        package static let invalidValue = Code("invalid_credential_value")
        /// A secret given as text in the file instead of `{"file": PATH}` or `{"env": NAME}`.
        package static let inlineSecret = Code("inline_secret")
        /// A scope that is not a strict `scheme://host[:port][/path]` prefix.
        package static let invalidScope = Code("invalid_credential_scope")
        /// A secret's file can't be read or its environment variable is unset (may appear later: retryable).
        package static let secretUnavailable = Code("secret_unavailable")
        /// Two credentials that can't be used in one process (two Kerberos identities: libcurl's is process-wide).
        package static let conflict = Code("credential_conflict")
        /// A file a credential names (certificate, key, CA file, keytab) can't be read.
        package static let fileUnreadable = Code("credential_file_unreadable")
        /// A secret's file or variable is empty (or only a newline).
        package static let emptySecret = Code("empty_secret")
    }

    package var code: Code
    /// The credential's name; `nil` for errors about the whole file or a credential whose name is unusable.
    package var credential: String?
    /// Where the credential sits in the file's list (from 0), for errors before its name is known.
    package var index: Int?
    /// The field at fault (`password`, `scope[1]`); `nil` for the whole file or credential.
    package var field: String?
    /// What is wrong and how to fix it, without any value from the file or a secret.
    package var reason: String

    package init(code: Code, credential: String? = nil, index: Int? = nil, field: String? = nil, reason: String) {
        self.code = code
        self.credential = credential
        self.index = index
        self.field = field
        self.reason = reason
    }

    /// Whether trying again later may succeed without changing the file: only a secret or file that is not there
    /// yet (a volume still mounting, a variable set by a later rollout).
    package var isRetryable: Bool { code == .secretUnavailable || code == .fileUnreadable }

    /// The credential and field, then the reason: `credential 'gis', field 'password': …`.
    package var message: String {
        var subject: [String] = []
        if let credential {
            subject.append("credential '\(credential)'")
        } else if let index {
            subject.append("credential #\(index + 1)")
        }
        if let field { subject.append("field '\(field)'") }
        return subject.isEmpty ? reason : subject.joined(separator: ", ") + ": " + reason
    }

    package var description: String { "CredentialsConfigurationError(\(code)): \(message)" }
}
