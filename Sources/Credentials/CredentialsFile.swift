import FeatureQuerySupport
import Foundation

/// The operator's credentials file (`--credentials-file`, `QUERY_WORKER_CREDENTIALS_FILE`).
///
/// A JSON object with one member, `credentials`, a list of credentials:
///
/// ```json
/// {"credentials": [
///   {"name": "gis-token", "kind": "token", "scope": "https://gis.example.com/arcgis",
///    "username": "svc_query", "password": {"file": "/run/secrets/gis/password"},
///    "referer": "https://query-worker.example.com", "expirationMinutes": 60}
/// ]}
/// ```
///
/// An object rather than a bare list so that later versions can add file-wide members; unknown members,
/// here and in each credential, are refused (a typo must not leave a credential silently half-configured).
/// Every credential has `name` (unique, 1–64 of `A-Z a-z 0-9 _ . -`), `kind` (``CredentialKind``) and `scope`
/// (one URL prefix or a non-empty list), then its kind's fields (see ``decodeSettings(_:kind:)``). Secret fields
/// take `{"file": PATH}` or `{"env": NAME}` only.
package enum CredentialsFile {
    /// Largest credentials file read.
    package static let maxFileBytes = 1 << 20

    /// Reads and validates the file at `path`; nothing is resolved (see ``CredentialStore/check(with:)``).
    package static func load(path: String) throws(CredentialsConfigurationError) -> CredentialStore {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CredentialsConfigurationError(code: .invalidFile, reason: "the credentials file \(path) can't be read")
        }
        guard data.count <= maxFileBytes else {
            throw CredentialsConfigurationError(
                code: .invalidFile, reason: "the credentials file \(path) is larger than \(maxFileBytes) bytes")
        }
        return try decode(Array(data))
    }

    /// Validates the file's JSON text.
    package static func decode(_ bytes: some Collection<UInt8>) throws(CredentialsConfigurationError) -> CredentialStore {
        let json: ParsedJSON
        do {
            json = try ParsedJSON(reading: bytes, limits: JSONReadingLimits(maxBytes: maxFileBytes, maxDepth: 16))
        } catch {
            // The reader's message names a byte offset and the token's kind, never the text around it.
            throw CredentialsConfigurationError(code: .invalidFile, reason: "the credentials file is not valid JSON: \(error)")
        }
        let shapeHint = "the credentials file must be {\"credentials\": [ ... ]}"
        guard case .object(let top) = json else {
            throw CredentialsConfigurationError(code: .invalidFile, reason: shapeHint)
        }
        for key in top.keys.sorted() where key != "credentials" {
            throw CredentialsConfigurationError(
                code: .invalidFile, field: key, reason: "is not a member of the credentials file (\(shapeHint))")
        }
        guard case .array(let items) = top["credentials"] else {
            throw CredentialsConfigurationError(
                code: .invalidFile, field: "credentials", reason: "must be a list: \(shapeHint)")
        }
        var credentials: [Credential] = []
        var seen: [String: Int] = [:]
        for (index, item) in items.enumerated() {
            let credential = try decodeCredential(item, index: index)
            if let first = seen[credential.name] {
                throw CredentialsConfigurationError(
                    code: .duplicateName, credential: credential.name, index: index, field: "name",
                    reason: "is used by credentials #\(first + 1) and #\(index + 1); names must be unique")
            }
            seen[credential.name] = index
            credentials.append(credential)
        }
        try checkOneKerberosIdentity(credentials)
        return CredentialStore(credentials: credentials)
    }

    /// libcurl's GSS-API identity (the client keytab and principal) belongs to the process, not the request, so
    /// every `negotiate` credential must name the same one.
    static func checkOneKerberosIdentity(_ credentials: [Credential]) throws(CredentialsConfigurationError) {
        var first: (name: String, keytab: String?, principal: String?)?
        for credential in credentials {
            guard case .password(let settings) = credential.configuration, settings.scheme == .negotiate else { continue }
            guard let established = first else {
                first = (credential.name, settings.keytab, settings.principal)
                continue
            }
            if established.keytab != settings.keytab || established.principal != settings.principal {
                throw CredentialsConfigurationError(
                    code: .conflict, credential: credential.name, field: "principal",
                    reason: "differs from credential '\(established.name)': one process has one Kerberos identity "
                        + "(keytab and principal), so every negotiate credential must use the same")
            }
        }
    }

    static func decodeCredential(_ json: ParsedJSON, index: Int) throws(CredentialsConfigurationError) -> Credential {
        guard case .object(let members) = json else {
            throw CredentialsConfigurationError(
                code: .invalidFile, index: index, reason: "must be an object, not \(shape(json))")
        }
        guard case .string(let name) = members["name"], isValidName(name) else {
            let code: CredentialsConfigurationError.Code = members["name"] == nil ? .missingField : .invalidName
            throw CredentialsConfigurationError(
                code: code, index: index, field: "name", reason: "must be 1–64 characters of A-Z a-z 0-9 _ . -")
        }
        let fields = CredentialFields(credential: name, members: members)
        guard let kindText = try fields.optionalString("kind") else {
            throw fields.error(.missingField, "kind", "is required (one of \(kindList))")
        }
        guard let kind = CredentialKind(rawValue: kindText) else {
            throw fields.error(.unknownKind, "kind", "must be one of \(kindList)")
        }
        let scopes = try decodeScopes(fields)
        let configuration = try decodeSettings(fields, kind: kind)
        return Credential(name: name, scopes: scopes, configuration: configuration)
    }

    private static var kindList: String { CredentialKind.allCases.map(\.rawValue).joined(separator: ", ") }

    static func isValidName(_ name: String) -> Bool {
        (1...64).contains(name.utf8.count)
            && name.utf8.allSatisfy { byte in
                switch byte {
                case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
                    UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "."), UInt8(ascii: "-"):
                    true
                default: false
                }
            }
    }

    /// `scope`: one prefix or a non-empty list of them.
    static func decodeScopes(_ fields: CredentialFields) throws(CredentialsConfigurationError) -> [CredentialScope] {
        let howTo = "must be a URL prefix scheme://host[:port][/path] or a non-empty list of them"
        let texts: [(field: String, value: ParsedJSON)]
        switch fields.members["scope"] {
        case nil, .null?: throw fields.error(.missingField, "scope", "is required: it \(howTo)")
        case .array(let items)?:
            guard !items.isEmpty else { throw fields.error(.invalidScope, "scope", howTo) }
            texts = items.enumerated().map { ("scope[\($0.offset)]", $0.element) }
        case let value?: texts = [("scope", value)]
        }
        var scopes: [CredentialScope] = []
        for (field, value) in texts {
            guard case .string(let text) = value else { throw fields.error(.invalidScope, field, howTo) }
            do {
                let scope = try CredentialScope(parsing: text)
                if !scopes.contains(scope) { scopes.append(scope) }
            } catch {
                throw fields.error(.invalidScope, field, "\(howTo); it \(error.reason)")
            }
        }
        return scopes
    }
}
