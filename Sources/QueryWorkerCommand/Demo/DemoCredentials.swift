import Foundation

/// The operator's side of the demo's secured phase: a credentials file, as `query-worker run
/// --credentials-file` reads it, in a fresh temporary folder, with one `token` credential for the sample
/// server's `Secured` folder (and its portal) and its password in a file of its own (mode 0600), never inline.
///
/// The password is the sample server's documented test value (`viewer` / `viewer-password`), not a secret;
/// the demo still gives it the way an operator gives a real one, so the worker reads it as it would in
/// production.
struct DemoCredentials {
    /// The credential's name, as the demo prints it (outcomes and logs carry at most this).
    static let name = "demo-token"
    static let username = "viewer"
    static let password = "viewer-password"
    /// The referer the tokens are minted for (and sent with).
    static let referer = "https://query-worker.demo"
    /// Minutes the worker asks for; the server caps every token at its own lifetime knob (seven seconds here).
    static let expirationMinutes = 60

    /// The temporary folder holding both files.
    let folder: String
    /// `credentials.json` in ``folder``.
    let file: String

    /// Writes the folder for a credential covering `scope`: the secured folder's URL, and the portal's, where
    /// the worker sends the password (it sends it only to a token service under the credential's scopes).
    static func write(scope: [String]) throws -> DemoCredentials {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("query-worker-demo-\(UUID().uuidString.prefix(8).lowercased())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        let passwordFile = folder + "/password"
        let file = folder + "/credentials.json"
        try write(Data(password.utf8), to: passwordFile)
        let credential: [String: Any] = [
            "name": name, "kind": "token", "scope": scope, "username": username, "password": ["file": passwordFile],
            "referer": referer, "expirationMinutes": expirationMinutes,
        ]
        let json = try JSONSerialization.data(
            withJSONObject: ["credentials": [credential]], options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        try write(json, to: file)
        return DemoCredentials(folder: folder, file: file)
    }

    /// Removes the folder (the demo's last step, whatever happened).
    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Creates `path` with mode 0600. Foundation sets the mode just after writing; the folder is 0700, so
    /// nobody else can read the file in between.
    private static func write(_ data: Data, to path: String) throws {
        guard FileManager.default.createFile(atPath: path, contents: data, attributes: [.posixPermissions: 0o600]) else {
            throw DemoPlanError(message: "cannot write \(path)")
        }
    }
}
