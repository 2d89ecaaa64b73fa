import Authentication
import Credentials
import Foundation
import Testing

@Suite("Refresh token file")
struct RefreshTokenFileTests {
    @Test("written 0600 and read back; a second write replaces the content and leaves no temporary file")
    func atomicWrite() throws {
        let folder = try TestSupport.temporaryFolder()
        let path = folder + "/session.json"
        let first = RefreshTokenFile(
            refreshToken: Secret("rt-one"), issuedAtMilliseconds: 1_000, expiresAtMilliseconds: 5_000,
            redirectURI: "http://127.0.0.1:7890/callback", username: "analyst")
        try first.write(path: path)
        let mode = try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int
        #expect(mode == 0o600)
        #expect(try RefreshTokenFile.read(path: path) == first)

        let second = RefreshTokenFile(refreshToken: Secret("rt-two"), issuedAtMilliseconds: nil, expiresAtMilliseconds: nil)
        try second.write(path: path)
        #expect(try RefreshTokenFile.read(path: path) == second)
        let text = try String(contentsOfFile: path, encoding: .utf8)
        #expect(!text.contains("rt-one"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder) == ["session.json"])
        #expect((try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) == 0o600)

        try RefreshTokenFile.remove(path: path)
        #expect(!FileManager.default.fileExists(atPath: path))
        try RefreshTokenFile.remove(path: path)  // gone already: fine
    }

    @Test("a bare token is read with an unknown lifetime; other content is refused without quoting it")
    func readingForms() throws {
        let bare = try RefreshTokenFile.decode(Array("rt-bare\n".utf8), path: "/x")
        #expect(bare.refreshToken == Secret("rt-bare"))
        #expect(bare.expiresAtMilliseconds == nil)
        #expect(!bare.isDueForExchange(nowMilliseconds: .max))
        do {
            _ = try RefreshTokenFile.decode(Array(#"{"token":"leaky-value"}"#.utf8), path: "/x")
            Issue.record("an object without refreshToken was accepted")
        } catch {
            #expect(error.code == .invalid)
            #expect(!error.message.contains("leaky-value"))
        }
        #expect(throws: RefreshTokenFile.Failure.self) { try RefreshTokenFile.read(path: "/nonexistent/session.json") }
    }

    @Test("exchanged once half its life has passed; without an issue time, in its last day")
    func exchangeTiming() {
        let file = RefreshTokenFile(refreshToken: Secret("t"), issuedAtMilliseconds: 1_000, expiresAtMilliseconds: 3_000)
        #expect(!file.isDueForExchange(nowMilliseconds: 1_999))
        #expect(file.isDueForExchange(nowMilliseconds: 2_000))
        let day: Int64 = 86_400_000
        let noIssue = RefreshTokenFile(refreshToken: Secret("t"), issuedAtMilliseconds: nil, expiresAtMilliseconds: 10 * day)
        #expect(!noIssue.isDueForExchange(nowMilliseconds: 9 * day - 1))
        #expect(noIssue.isDueForExchange(nowMilliseconds: 9 * day))
    }
}
