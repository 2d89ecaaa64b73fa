package import FeatureQuerySupport

/// Where a secret field's value lives: a file (a Kubernetes secret volume, a Docker secret) or an environment
/// variable. The credentials file holds only this, never the secret, so the file itself can be shown, copied
/// into a ticket or kept in a repository.
package enum SecretReference: Sendable, Hashable, CustomStringConvertible {
    /// A file read each time the secret is needed, so a rotated secret is picked up.
    case file(path: String)
    /// An environment variable, by name.
    case environment(name: String)

    /// `{"file": PATH}` or `{"env": NAME}`: one member, a non-empty string. An inline string is refused with
    /// the two forms spelt out; its text is never repeated.
    package init(json: ParsedJSON, credential: String, field: String) throws(CredentialsConfigurationError) {
        let howTo = "give it as {\"file\": \"/path/to/secret\"} or {\"env\": \"VARIABLE_NAME\"}"
        guard case .object(let members) = json else {
            if case .string = json {
                throw CredentialsConfigurationError(
                    code: .inlineSecret, credential: credential, field: field,
                    reason: "a secret can't be written in the credentials file; \(howTo)")
            }
            throw CredentialsConfigurationError(
                code: .invalidValue, credential: credential, field: field, reason: "must be a secret reference: \(howTo)")
        }
        guard members.count == 1, let (key, value) = members.first, key == "file" || key == "env" else {
            throw CredentialsConfigurationError(
                code: .invalidValue, credential: credential, field: field,
                reason: "must have exactly one member, file or env: \(howTo)")
        }
        guard case .string(let text) = value, !text.isEmpty, !text.contains("\0") else {
            throw CredentialsConfigurationError(
                code: .invalidValue, credential: credential, field: "\(field).\(key)",
                reason: "must be a non-empty \(key == "file" ? "path" : "variable name")")
        }
        self = key == "file" ? .file(path: text) : .environment(name: text)
    }

    /// Where the secret is (a path or a variable name), which is not secret.
    package var description: String {
        switch self {
        case .file(let path): "file \(path)"
        case .environment(let name): "environment variable \(name)"
        }
    }
}
