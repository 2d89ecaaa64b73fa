import Foundation

/// The validated credentials, answering which apply to a target URL, as the ArcGIS SDKs' credential store
/// applies credentials by server context.
///
/// A value: a reload builds a new store and swaps it in whole, so a request sees one configuration.
package struct CredentialStore: Sendable, Hashable {
    /// In file order.
    package let all: [Credential]

    package init(credentials: [Credential]) { self.all = credentials }

    package func credential(named name: String) -> Credential? { all.first { $0.name == name } }

    /// Every credential with a scope covering `url`, most specific first (the longest matching path); equally
    /// specific ones stay in file order. Several kinds may apply together; see ``selection(for:)`` for the one
    /// of each role that wins. Empty for a URL that can't be read strictly (user info, a bad port).
    package func credentials(for url: String) -> [Credential] {
        guard let target = TargetLocation(url) else { return [] }
        let covering = all.enumerated().compactMap { entry -> (specificity: Int, order: Int, credential: Credential)? in
            guard let scope = entry.element.bestScope(covering: target) else { return nil }
            return (scope.specificity, entry.offset, entry.element)
        }
        return covering.sorted { ($0.specificity, -$0.order) > ($1.specificity, -$1.order) }.map(\.credential)
    }

    /// The most specific credential of each role that covers `url`.
    package func selection(for url: String) -> [CredentialKind.Role: Credential] {
        var chosen: [CredentialKind.Role: Credential] = [:]
        for credential in credentials(for: url) where chosen[credential.kind.role] == nil {
            chosen[credential.kind.role] = credential
        }
        return chosen
    }

    /// Everything that can be checked without a network call: every secret is read once (a missing file or an
    /// unset variable stops a start or a reload, naming the credential and field) and every file a credential
    /// names can be read. The values are dropped: requests read them again when they need them. Not checked
    /// here: a PKCS#12 password (needs the TLS library) and an `oauthUser`'s refresh token file (absent until
    /// `login`).
    package func check(with resolver: SecretResolver) throws(CredentialsConfigurationError) {
        for credential in all {
            for (field, reference) in credential.secretReferences {
                _ = try resolver.resolve(reference, credential: credential.name, field: field)
            }
            for (field, path) in credential.filePaths where !FileManager.default.isReadableFile(atPath: path) {
                throw CredentialsConfigurationError(
                    code: .fileUnreadable, credential: credential.name, field: field, reason: "the file \(path) can't be read")
            }
        }
    }
}
