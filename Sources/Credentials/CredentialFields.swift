import FeatureQuerySupport

/// One credential's JSON members, read field by field with errors that name the credential and field.
///
/// No message quotes a value: the operator may have put a secret in the wrong field.
struct CredentialFields {
    let credential: String
    let members: [String: ParsedJSON]

    func error(
        _ code: CredentialsConfigurationError.Code, _ field: String?, _ reason: String
    ) -> CredentialsConfigurationError {
        CredentialsConfigurationError(code: code, credential: credential, field: field, reason: reason)
    }

    /// Refuses members outside `allowed` (plus `name`, `kind`, `scope`), in name order so errors are stable.
    func rejectUnknown(allowed: Set<String>, kind: CredentialKind) throws(CredentialsConfigurationError) {
        let common: Set<String> = ["name", "kind", "scope"]
        for field in members.keys.sorted() where !allowed.contains(field) && !common.contains(field) {
            let known = (allowed.sorted() + ["name", "kind", "scope"]).joined(separator: ", ")
            throw error(.unknownField, field, "is not a field of a \(kind) credential (its fields: \(known))")
        }
    }

    func string(_ field: String) throws(CredentialsConfigurationError) -> String {
        guard let value = try optionalString(field) else { throw error(.missingField, field, "is required") }
        return value
    }

    /// A non-empty single-line string; `nil` when absent or `null`.
    func optionalString(_ field: String) throws(CredentialsConfigurationError) -> String? {
        guard let value = members[field], value != .null else { return nil }
        guard case .string(let text) = value else { throw error(.invalidValue, field, "must be text, not \(shape(value))") }
        guard !text.isEmpty, !text.unicodeScalars.contains(where: { $0.properties.generalCategory == .control })
        else { throw error(.invalidValue, field, "must be non-empty text without control characters") }
        return text
    }

    func secret(_ field: String) throws(CredentialsConfigurationError) -> SecretReference {
        guard let value = try optionalSecret(field) else {
            throw error(
                .missingField, field, "is required: give it as {\"file\": \"/path/to/secret\"} or {\"env\": \"VARIABLE_NAME\"}")
        }
        return value
    }

    func optionalSecret(_ field: String) throws(CredentialsConfigurationError) -> SecretReference? {
        guard let value = members[field], value != .null else { return nil }
        return try SecretReference(json: value, credential: credential, field: field)
    }

    func url(_ field: String) throws(CredentialsConfigurationError) -> CredentialURL {
        guard let value = try optionalURL(field) else { throw error(.missingField, field, "is required") }
        return value
    }

    func optionalURL(_ field: String) throws(CredentialsConfigurationError) -> CredentialURL? {
        guard let text = try optionalString(field) else { return nil }
        do {
            return try CredentialURL(parsing: text)
        } catch {
            throw self.error(
                .invalidValue, field, "must be an http or https URL without query or user info: it \(error.reason)")
        }
    }

    /// A whole number of minutes within `range`.
    func minutes(_ field: String, in range: ClosedRange<Int>) throws(CredentialsConfigurationError) -> Int {
        guard let value = members[field], value != .null else { throw error(.missingField, field, "is required") }
        guard case .number(let number) = value, number.rounded() == number,
            Double(range.lowerBound) <= number, number <= Double(range.upperBound)
        else {
            throw error(
                .invalidValue, field, "must be a whole number of minutes from \(range.lowerBound) to \(range.upperBound)")
        }
        return Int(number)
    }

    func choice<Choice: RawRepresentable & CaseIterable>(
        _ field: String, as type: Choice.Type, default defaultValue: Choice? = nil
    ) throws(CredentialsConfigurationError) -> Choice where Choice.RawValue == String {
        let options = Choice.allCases.map(\.rawValue).joined(separator: ", ")
        guard let text = try optionalString(field) else {
            guard let defaultValue else { throw error(.missingField, field, "is required (one of \(options))") }
            return defaultValue
        }
        guard let value = Choice(rawValue: text) else { throw error(.invalidValue, field, "must be one of \(options)") }
        return value
    }

    /// A field that does not fit the others: `field` must be absent because of `why`.
    func refuse(_ field: String, because why: String) throws(CredentialsConfigurationError) {
        if let value = members[field], value != .null { throw error(.invalidValue, field, "is not allowed \(why)") }
    }
}

/// The type of a JSON value, never its content.
func shape(_ value: ParsedJSON) -> String {
    switch value {
    case .null: "null"
    case .bool: "true/false"
    case .number: "a number"
    case .string: "text"
    case .array: "a list"
    case .object: "an object"
    }
}
