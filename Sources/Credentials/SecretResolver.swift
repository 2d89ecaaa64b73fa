import Foundation

/// Reads a ``SecretReference``'s value now.
///
/// Files are opened by path on every call, never cached: a Kubernetes secret volume is updated by pointing
/// the `..data` symlink at a new folder, so only a fresh open through the path sees the rotated value. The
/// environment is injected rather than read from the process, so tests and reloads see exactly what they pass.
package struct SecretResolver: Sendable {
    /// The largest secret file read; a secret is a line of text, so anything larger is a misconfigured path.
    package static let defaultMaxFileBytes = 64 << 10

    package var environment: [String: String]
    package var maxFileBytes: Int

    package init(environment: [String: String], maxFileBytes: Int = SecretResolver.defaultMaxFileBytes) {
        self.environment = environment
        self.maxFileBytes = maxFileBytes
    }

    /// The secret, with one trailing newline (`\n` or `\r\n`) removed as `echo` and editors add one.
    package func resolve(
        _ reference: SecretReference, credential: String, field: String
    ) throws(CredentialsConfigurationError) -> Secret {
        func failure(_ code: CredentialsConfigurationError.Code, _ reason: String) -> CredentialsConfigurationError {
            CredentialsConfigurationError(code: code, credential: credential, field: field, reason: reason)
        }
        let text: String
        switch reference {
        case .environment(let name):
            guard let value = environment[name] else {
                throw failure(.secretUnavailable, "the environment variable \(name) is not set")
            }
            text = value
        case .file(let path):
            guard let data = FileManager.default.contents(atPath: path) else {
                throw failure(.secretUnavailable, "the secret file \(path) can't be read")
            }
            guard data.count <= maxFileBytes else {
                throw failure(.invalidValue, "the secret file \(path) is larger than \(maxFileBytes) bytes")
            }
            guard let decoded = String(validating: data, as: UTF8.self) else {
                throw failure(.invalidValue, "the secret file \(path) is not UTF-8 text")
            }
            text = decoded
        }
        let trimmed = Self.trimmingOneNewline(text)
        guard !trimmed.isEmpty else { throw failure(.emptySecret, "the secret in \(reference) is empty") }
        return Secret(trimmed)
    }

    static func trimmingOneNewline(_ text: String) -> String {
        var bytes = Substring(text).utf8[...]
        if bytes.last == UInt8(ascii: "\n") {
            bytes = bytes.dropLast()
            if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
        }
        return String(Substring(bytes))
    }
}
