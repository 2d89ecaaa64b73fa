import ArgumentParser
import Authentication
import Credentials
import CurlHTTP
import Foundation

/// `query-worker logout`: the seed's sign-out. Revokes the credential's refresh token at the portal, then
/// deletes its `refreshTokenFile`; a failed revocation keeps the file so that logout can be run again.
struct LogoutCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "logout",
        abstract: "Revoke an oauthUser credential's refresh token at its portal and delete its refreshTokenFile.")

    @OptionGroup var selection: CredentialSelection
    @OptionGroup var logging: LoggingOptions

    func run() async throws {
        let logger = logging.makeLogger(label: "query-worker.logout")
        let credential = try selection.resolve()
        let client = try HTTPClient(logger: logger)
        let issuer = ArcGISTokenIssuer(client: client, resolver: SecretResolver(environment: ProcessInfo.processInfo.environment), logger: logger)
        do throws(OAuthSessionFailure) {
            if try await issuer.logOut(credential) {
                printError("Signed out: the refresh token of \"\(credential.name)\" was revoked and its file deleted")
            } else {
                printError("The credential \"\(credential.name)\" has no refresh token file: nothing to revoke")
            }
        } catch {
            await client.shutdown()
            throw CommandFailure("logout failed: \(error.message)")
        }
        await client.shutdown()
    }
}
