package import Credentials
import FeatureQuerySupport
import Foundation

/// An `oauthUser` credential's session on disk: the file `refreshTokenFile` names, written by `query-worker
/// login` and rewritten by the worker each time it exchanges the refresh token for a new one.
///
/// The format is one JSON object, mode 0600:
///
/// ```json
/// {"refreshToken": "…", "issuedAt": 1764115200000, "expiresAt": 1765324800000,
///  "redirectUri": "http://127.0.0.1:7890/callback", "username": "analyst"}
/// ```
///
/// `refreshToken` is required; `issuedAt`/`expiresAt` (Unix milliseconds) say when the token was issued and
/// when the portal will stop accepting it, so the worker exchanges it (`exchange_refresh_token`) once half
/// its life has passed, long before it expires; `redirectUri` is the one `login` used, which the exchange must
/// repeat; `username` is informational. A file holding only the token as text (no `{`) is read as a refresh
/// token of unknown lifetime, never exchanged.
package struct RefreshTokenFile: Sendable, Hashable {
    package var refreshToken: Secret
    package var issuedAtMilliseconds: Int64?
    package var expiresAtMilliseconds: Int64?
    package var redirectURI: String?
    package var username: String?

    package static let maxBytes = 64 << 10

    package init(
        refreshToken: Secret, issuedAtMilliseconds: Int64?, expiresAtMilliseconds: Int64?, redirectURI: String? = nil,
        username: String? = nil
    ) {
        self.refreshToken = refreshToken
        self.issuedAtMilliseconds = issuedAtMilliseconds
        self.expiresAtMilliseconds = expiresAtMilliseconds
        self.redirectURI = redirectURI
        self.username = username
    }

    /// Whether the token should be exchanged for a new one at `nowMilliseconds`: half its lifetime has passed
    /// (ArcGIS's refresh tokens last about two weeks, so about once a week), or, without an issue time, less
    /// than a day is left. `false` when its expiry is unknown.
    package func isDueForExchange(nowMilliseconds: Int64) -> Bool {
        guard let expiresAtMilliseconds else { return false }
        if let issuedAtMilliseconds, issuedAtMilliseconds < expiresAtMilliseconds {
            return nowMilliseconds >= issuedAtMilliseconds + (expiresAtMilliseconds - issuedAtMilliseconds) / 2
        }
        return nowMilliseconds >= expiresAtMilliseconds - 86_400_000
    }

    /// Why the file can't be used: the message names the file, never its content.
    package struct Failure: Error, Sendable, Hashable, CustomStringConvertible {
        package enum Code: String, Sendable, Hashable { case missing, unreadable, invalid, writeFailed }
        package var code: Code
        package var message: String
        package var description: String { "RefreshTokenFile.Failure(\(code)): \(message)" }
    }

    /// Reads the file at `path`.
    package static func read(path: String) throws(Failure) -> RefreshTokenFile {
        guard FileManager.default.fileExists(atPath: path) else {
            throw Failure(code: .missing, message: "the refresh token file \(path) does not exist")
        }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(code: .unreadable, message: "the refresh token file \(path) can't be read")
        }
        guard data.count <= maxBytes else {
            throw Failure(code: .invalid, message: "the refresh token file \(path) is larger than \(maxBytes) bytes")
        }
        return try decode(Array(data), path: path)
    }

    package static func decode(_ bytes: [UInt8], path: String) throws(Failure) -> RefreshTokenFile {
        let invalid = Failure(code: .invalid, message: "the refresh token file \(path) is not a refresh token file (see `query-worker login`)")
        let text = String(decoding: bytes, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard text.hasPrefix("{") else {
            guard !text.isEmpty, !text.contains(where: \.isWhitespace) else { throw invalid }
            return RefreshTokenFile(refreshToken: Secret(text), issuedAtMilliseconds: nil, expiresAtMilliseconds: nil)
        }
        guard let json = try? ParsedJSON(reading: text), case .string(let token)? = json["refreshToken"], !token.isEmpty else {
            throw invalid
        }
        func milliseconds(_ name: String) -> Int64? {
            guard case .number(let value)? = json[name], value.rounded() == value, value > 0, value < 1e15 else { return nil }
            return Int64(value)
        }
        func string(_ name: String) -> String? {
            guard case .string(let value)? = json[name], !value.isEmpty else { return nil }
            return value
        }
        return RefreshTokenFile(
            refreshToken: Secret(token), issuedAtMilliseconds: milliseconds("issuedAt"),
            expiresAtMilliseconds: milliseconds("expiresAt"), redirectURI: string("redirectUri"), username: string("username"))
    }

    /// The file's JSON text. Contains the secret: only for ``write(path:)``.
    func encoded() -> [UInt8] {
        var text = "{\"refreshToken\":" + JSONString.quoted(refreshToken.revealed())
        if let issuedAtMilliseconds { text += ",\"issuedAt\":\(issuedAtMilliseconds)" }
        if let expiresAtMilliseconds { text += ",\"expiresAt\":\(expiresAtMilliseconds)" }
        if let redirectURI { text += ",\"redirectUri\":" + JSONString.quoted(redirectURI) }
        if let username { text += ",\"username\":" + JSONString.quoted(username) }
        return Array((text + "}\n").utf8)
    }

    /// Replaces the file at `path` atomically: a temporary file (mode 0600) in the same folder, written and
    /// flushed to disk, then renamed over it, then the folder flushed. A reader sees the old file or the new one,
    /// never half of one, and a crash leaves the old one.
    package func write(path: String) throws(Failure) {
        try AtomicFile.replace(path, with: encoded())
    }

    /// Deletes the file; a file already gone is fine.
    package static func remove(path: String) throws(Failure) {
        guard unlink(path) == 0 || errno == ENOENT else {
            throw Failure(code: .writeFailed, message: "the refresh token file \(path) can't be deleted (errno \(errno))")
        }
    }
}
