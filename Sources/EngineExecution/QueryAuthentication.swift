import Synchronization

/// One query's view of the worker's ``RequestAuthenticator``: the authenticator with the credential the query
/// picked, so every request of the query (metadata, pages, `next` links, tiles) asks for its own URL with the
/// same pick, and the engine's ``ParameterRedactor`` that learns every secret query parameter handed out.
package struct QueryAuthentication: Sendable {
    package let authenticator: any RequestAuthenticator
    /// The credential the request picked by name; `nil`: whatever covers each URL by scope.
    package let credential: String?
    package let redactor: ParameterRedactor

    package init(_ authenticator: any RequestAuthenticator, credential: String?, redactor: ParameterRedactor) {
        self.authenticator = authenticator
        self.credential = credential
        self.redactor = redactor
    }

    /// What to add to a request for `url` (``RequestAuthenticator/authentication(for:credential:)``); its
    /// query parameters are remembered for redaction before anything is sent.
    package func authentication(for url: String) async throws -> AppliedAuthentication {
        let applied = try await authenticator.authentication(for: url, credential: credential)
        redactor.learn(applied.parameters)
        return applied
    }

    /// ``authentication(for:)`` when the authenticator knows the answer at once
    /// (``RequestAuthenticator/immediateAuthentication(for:credential:)``), else nil: then call that.
    package func immediateAuthentication(for url: String) -> AppliedAuthentication? {
        guard let applied = authenticator.immediateAuthentication(for: url, credential: credential) else { return nil }
        redactor.learn(applied.parameters)
        return applied
    }

    /// What to send on the one retry after the service rejected `applied` (``RequestAuthenticator/rejected(_:serviceCode:for:credential:)``).
    package func rejected(_ applied: AppliedAuthentication, serviceCode: Int, for url: String) async throws -> AppliedAuthentication? {
        let next = try await authenticator.rejected(applied, serviceCode: serviceCode, for: url, credential: credential)
        if let next { redactor.learn(next.parameters) }
        return next
    }

    /// The part of a metadata cache key that stands for whose access loaded the value: the credential the query
    /// picked, else the one the authenticator applies to `url` by scope (``AppliedAuthentication/cacheIdentity``,
    /// else the token's credential), else nothing. Callers with different access never share cached metadata;
    /// callers with none share it as before.
    package func cacheIdentity(for url: String) async throws -> String {
        if let credential { return "pick:" + credential }
        return Self.identity(of: try await authentication(for: url))
    }

    /// `key` for a cache shared by callers with the same access only.
    package func cacheKey(_ key: String, for url: String) async throws -> String {
        Self.key(key, identity: try await cacheIdentity(for: url))
    }

    /// ``cacheKey(_:for:)`` when it is known without an `await` (a picked credential, or an authenticator that
    /// answers at once: ``immediateAuthentication(for:)``), else nil.
    package func immediateCacheKey(_ key: String, for url: String) -> String? {
        if let credential { return Self.key(key, identity: "pick:" + credential) }
        guard let applied = immediateAuthentication(for: url) else { return nil }
        return Self.key(key, identity: Self.identity(of: applied))
    }

    private static func identity(of applied: AppliedAuthentication) -> String {
        if let name = applied.cacheIdentity ?? applied.token?.credential { return "scope:" + name }
        return applied.isEmpty ? "" : "scope:?"
    }

    private static func key(_ key: String, identity: String) -> String {
        identity.isEmpty ? key : key + "\u{1F}" + identity
    }
}

/// The query parameters credentials put on URLs (an `apiKey` configured `in: query`), remembered engine-wide so
/// every URL an engine logs or writes into an error or its details shows `<redacted>` instead of their values,
/// including a `next` link a server echoed them into, and an error a shared metadata load raised for another
/// caller.
package final class ParameterRedactor: Sendable {
    private struct Learned {
        var names: Set<String> = []
        var values: Set<String> = []
    }

    private let learned = Mutex(Learned())

    package init() {}

    /// Remembers the names and values of `parameters`.
    package func learn(_ parameters: [AppliedAuthentication.HeaderField]) {
        guard !parameters.isEmpty else { return }
        learned.withLock { learned in
            for field in parameters {
                learned.names.insert(field.name)
                learned.values.insert(field.value)
                learned.values.insert(URLParameters.encode(field.value))
            }
        }
    }

    /// Whether anything is remembered (most workers never put credentials in URLs: nothing to scan).
    package var isEmpty: Bool { learned.withLock { $0.names.isEmpty } }

    /// `text` with the value of every remembered parameter in a URL query, and every remembered value wherever
    /// it stands, replaced by `<redacted>`.
    package func redact(_ text: String) -> String {
        let learned = learned.withLock { $0 }
        guard !learned.names.isEmpty else { return text }
        var text = text
        for name in learned.names {
            text = URLParameters.redactingValues(of: name, in: text)
            let encoded = URLParameters.encode(name)
            if encoded != name { text = URLParameters.redactingValues(of: encoded, in: text) }
        }
        // Values long enough to be secrets (short ones would mangle unrelated text; their names caught them).
        for value in learned.values where value.utf8.count >= 8 && text.contains(value) {
            text = text.replacing(value, with: "<redacted>")
        }
        return text
    }

    /// `texts`, each redacted.
    package func redact(_ texts: [String]) -> [String] {
        isEmpty ? texts : texts.map(redact)
    }
}
