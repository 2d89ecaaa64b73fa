package import Credentials
package import Foundation
import Synchronization

import QueryWorker
import RequestContract

/// The credentials as a decoder checks names against them, without an authenticator: the store alone.
package final class FixedCredentials: CurrentCredentials {
    private let current: Mutex<CredentialStore>
    private let replacements = Atomic<Int>(0)

    package init(_ store: CredentialStore) { current = Mutex(store) }

    /// A store read from the credentials file's JSON text (secrets are not resolved).
    package convenience init(json: String) throws {
        self.init(try CredentialsFile.decode(Array(json.utf8)))
    }

    package var store: CredentialStore { current.withLock { $0 } }
    /// How many times ``replace(store:)`` was called.
    package var replaceCount: Int { replacements.load(ordering: .relaxed) }

    package func replace(store: CredentialStore) async {
        current.withLock { $0 = store }
        replacements.add(1, ordering: .relaxed)
    }
}

/// A folder of its own for one test's credentials file and secret files, removed by ``remove()``.
package struct CredentialsFolder {
    package let url: URL

    package init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("credentials-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    package func path(_ name: String) -> String { url.appendingPathComponent(name).path }

    /// Writes `text` to `name` (replacing it) and returns the path.
    @discardableResult
    package func write(_ name: String, _ text: String) throws -> String {
        let path = path(name)
        let directory = URL(fileURLWithPath: path).deletingLastPathComponent()
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    package func remove() { try? FileManager.default.removeItem(at: url) }

    /// A credentials file of `credentials` (JSON objects, joined into the list).
    package static func file(_ credentials: String...) -> String {
        #"{"credentials": [\#(credentials.joined(separator: ", "))]}"#
    }
}

/// Credentials as the tests write them.
package enum SampleCredentials {
    /// A `token` credential whose password is the file `passwordFile`.
    package static func token(_ name: String, scope: String, passwordFile: String) -> String {
        #"{"name": "\#(name)", "kind": "token", "scope": "\#(scope)", "username": "svc", "#
            + #""password": {"file": "\#(passwordFile)"}, "referer": "https://worker.example", "expirationMinutes": 60}"#
    }

    /// An `apiKey` credential whose key is the environment variable `variable`.
    package static func apiKey(_ name: String, scope: String, variable: String) -> String {
        #"{"name": "\#(name)", "kind": "apiKey", "scope": "\#(scope)", "key": {"env": "\#(variable)"}}"#
    }

    /// A `password` credential with `scheme: negotiate`.
    package static func negotiate(_ name: String, scope: String, keytab: String, principal: String = "HTTP/worker@EXAMPLE.ORG") -> String {
        #"{"name": "\#(name)", "kind": "password", "scheme": "negotiate", "scope": "\#(scope)", "#
            + #""keytab": "\#(keytab)", "principal": "\#(principal)"}"#
    }
}
