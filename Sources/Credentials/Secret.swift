/// A secret's value (a password, a client secret, a key, a token), kept out of every text the program writes.
///
/// `description`, `debugDescription` and the mirror all say `<redacted>`, so string interpolation, `print`,
/// `dump`, a logger's metadata or an error built carelessly around it show nothing. The value is reached only
/// through ``revealed()``, which a reviewer can search for: each call is a place where the secret leaves
/// this type (a request body, a header, libcurl's key password).
package struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    private let value: String

    package init(_ value: String) { self.value = value }

    /// The secret itself. Call it only where the value goes to the server or library that needs it.
    package func revealed() -> String { value }

    package var description: String { "<redacted>" }
    package var debugDescription: String { "<redacted>" }
    package var customMirror: Mirror { Mirror(self, children: [], displayStyle: .struct) }
}
