import Foundation
import Synchronization

/// Temporary credentials from `AssumeRoleWithWebIdentity`, with the token read from
/// `AWS_WEB_IDENTITY_TOKEN_FILE` (Kubernetes rotates it) for role `AWS_ROLE_ARN`: how a pod gets object-store
/// access without a long-lived key (EKS' IRSA sets both variables).
///
/// The credentials are kept and reused until five minutes before they expire; then the next caller fetches new
/// ones (callers meanwhile fetch too: rare and harmless, and simpler than a single flight).
package final class WebIdentityCredentialsProvider: AWSCredentialsProvider {
    package struct Configuration: Sendable, Hashable {
        package var tokenFile: String
        package var roleARN: String
        package var sessionName: String

        package init(tokenFile: String, roleARN: String, sessionName: String = "query-worker") {
            self.tokenFile = tokenFile
            self.roleARN = roleARN
            self.sessionName = sessionName
        }

        /// From `AWS_WEB_IDENTITY_TOKEN_FILE`, `AWS_ROLE_ARN` and `AWS_ROLE_SESSION_NAME`; nil unless the first two are set.
        package init?(environment: [String: String]) {
            guard let file = environment["AWS_WEB_IDENTITY_TOKEN_FILE"], !file.isEmpty,
                let role = environment["AWS_ROLE_ARN"], !role.isEmpty
            else { return nil }
            self.init(tokenFile: file, roleARN: role, sessionName: environment["AWS_ROLE_SESSION_NAME"].flatMap { $0.isEmpty ? nil : $0 } ?? "query-worker")
        }
    }

    /// How long before expiry credentials are replaced: no request should start with credentials that end
    /// while its body is still uploading.
    static let refreshMargin: TimeInterval = 300

    package let configuration: Configuration
    let sts: STSClient
    private let cached = Mutex<AWSCredentials?>(nil)

    package init(configuration: Configuration, sts: STSClient) {
        self.configuration = configuration
        self.sts = sts
    }

    package func credentials() async throws(ObjectStoreError) -> AWSCredentials {
        if let current = cached.withLock({ $0 }), let expiration = current.expiration,
            expiration.timeIntervalSinceNow > Self.refreshMargin
        {
            return current
        }
        guard let data = FileManager.default.contents(atPath: configuration.tokenFile) else {
            throw .credentials("the web identity token file \(configuration.tokenFile) can't be read")
        }
        let token = String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !token.isEmpty else { throw .credentials("the web identity token file \(configuration.tokenFile) is empty") }
        let fresh: AWSCredentials
        do {
            fresh = try await sts.assumeRoleWithWebIdentity(
                roleARN: configuration.roleARN, sessionName: configuration.sessionName, webIdentityToken: token)
        } catch let error as ObjectStoreError {
            throw error
        } catch {
            throw ObjectStoreError(code: .requestFailed, message: "AssumeRoleWithWebIdentity for \(configuration.roleARN) failed: \(error)")
        }
        cached.withLock { $0 = fresh }
        return fresh
    }
}
