import ArgumentParser
import Authentication
import Credentials
import CurlHTTP
import FeatureQuerySupport
import Foundation
import QueryWorker

/// `query-worker login`: signs an `oauthUser` credential in once, on the machine the worker runs on or any
/// machine that shares its `refreshTokenFile`. The flow is `OAuthLogin`'s; this only finds the credential and
/// prints.
struct LoginCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "login",
        abstract: "Sign an oauthUser credential in (OAuth authorization code with PKCE) and store its refresh token.",
        discussion: """
            Prints the portal's sign-in URL on standard output and waits for the browser's redirect to the \
            credential's loopback redirectUri (registered with the application, e.g. http://127.0.0.1:7890/callback). \
            Open the URL in any browser that reaches that port of this machine; from another machine, forward it \
            first (ssh -L 7890:127.0.0.1:7890 worker-host). The refresh token goes to the credential's \
            refreshTokenFile (mode 0600); the worker keeps it fresh from then on.
            """)

    @OptionGroup var selection: CredentialSelection
    @Option(help: ArgumentHelp("The loopback redirect URI registered with the application (default: the credential's redirectUri).", valueName: "uri"))
    var redirectUri: String?
    @Option(help: ArgumentHelp("Seconds to wait for the redirect.", valueName: "seconds")) var timeout = 300
    @OptionGroup var logging: LoggingOptions

    func validate() throws {
        guard (1...3600).contains(timeout) else { throw ValidationError("--timeout is 1 to 3600 seconds") }
    }

    func run() async throws {
        let logger = logging.makeLogger(label: "query-worker.login")
        let credential = try selection.resolve()
        let client = try HTTPClient(logger: logger)
        do throws(OAuthSessionFailure) {
            let login = try OAuthLogin(credential: credential, redirectURI: redirectUri, client: client, logger: logger)
            let session = try await login.run(timeout: .seconds(timeout)) { url in
                printError("Open this URL in a browser to sign in as the credential \"\(credential.name)\" (waiting \(timeout) s):")
                printLine(url)
            }
            var summary = "Signed in\(session.username.map { " as \($0)" } ?? ""); the refresh token is in \(session.refreshTokenFile)"
            if let expires = session.expiresAtMilliseconds { summary += " (valid until \(RFC3339.string(fromMilliseconds: expires)))" }
            printError(summary)
        } catch {
            await client.shutdown()
            throw CommandFailure("login failed: \(error.message)")
        }
        await client.shutdown()
    }
}

/// `--credential NAME [--credentials-file F]`: which credential of which file `login` and `logout` act on.
struct CredentialSelection: ParsableArguments {
    @Option(help: ArgumentHelp("The credential's name in the credentials file.", valueName: "name")) var credential: String
    @Option(help: ArgumentHelp("The credentials file (default: $QUERY_WORKER_CREDENTIALS_FILE).", valueName: "path"))
    var credentialsFile: String?

    func resolve() throws -> Credential {
        let variable = SettingsKey.credentialsFile.environmentVariable
        guard let path = credentialsFile ?? ProcessInfo.processInfo.environment[variable] else {
            throw CommandFailure("give --credentials-file or set \(variable)")
        }
        let store: CredentialStore
        do throws(CredentialsConfigurationError) { store = try CredentialsFile.load(path: path) } catch { throw CommandFailure(error.message) }
        guard let credential = store.credential(named: credential) else {
            throw CommandFailure("the credentials file \(path) has no credential named \"\(credential)\"")
        }
        guard case .oauthUser = credential.configuration else {
            throw CommandFailure("the credential \"\(credential.name)\" is a \(credential.kind) credential; login and logout are for oauthUser credentials")
        }
        return credential
    }
}
