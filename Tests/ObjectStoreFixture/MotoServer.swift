import ChildProcessFixture
import CurlHTTP
import Foundation
import Logging

/// moto's S3 (and IAM and STS) server as a watched child process on a loopback port, with a bucket and an IAM
/// user whose keys may use it, and signature checking on: every request after the setup must carry a valid
/// SigV4 signature of a key moto knows, so a signing mistake fails the test instead of passing unnoticed.
///
/// moto checks signatures only once its count of unauthenticated actions (`INITIAL_NO_AUTH_ACTION_COUNT`,
/// unlimited by default) is used up. The fixture creates the user, its policy and keys, and the bucket while
/// the count is unlimited, then sets it to 0 through moto's `/moto-api/reset-auth` (body: the number, as text).
///
/// With checking on, moto 5.2.5 answers 500 to every request without an `Authorization` header: presigned URLs
/// (it never verifies their signatures) and the unsigned `AssumeRoleWithWebIdentity`. Those go to a server with
/// `signatureChecking: false`.
package final class MotoServer: Sendable {
    /// `http://127.0.0.1:PORT`.
    package let endpoint: String
    package let bucket: String
    package let region = "us-east-1"
    /// The IAM user's keys (moto verifies signatures made with them).
    package let accessKeyID: String
    package let secretAccessKey: String
    /// The role a web identity may assume (with S3 permissions), for the web-identity provider's tests.
    package let roleARN: String
    package let python: String
    /// Whether moto verifies signatures (see the type's note).
    package let signatureChecking: Bool
    /// Temporary credentials of the role (with a session token), taken with `AssumeRole` by the user: moto
    /// verifies the token and the signature of requests made with them. Nil without signature checking.
    package let temporaryAccessKeyID: String?
    package let temporarySecretAccessKey: String?
    package let temporarySessionToken: String?
    private let server: WatchedProcess
    private let directory: String

    private init(
        endpoint: String, bucket: String, words: [String], python: String, signatureChecking: Bool, server: WatchedProcess,
        directory: String
    ) {
        self.endpoint = endpoint
        self.bucket = bucket
        self.accessKeyID = words[0]
        self.secretAccessKey = words[1]
        self.roleARN = words[2]
        self.python = python
        self.signatureChecking = signatureChecking
        temporaryAccessKeyID = words[3] == "-" ? nil : words[3]
        temporarySecretAccessKey = words[4] == "-" ? nil : words[4]
        temporarySessionToken = words[5] == "-" ? nil : words[5]
        self.server = server
        self.directory = directory
    }

    /// Starts moto, waits until it answers, and prepares the user, the role and `bucket`.
    package static func start(bucket: String = "results", signatureChecking: Bool = true) async throws -> MotoServer {
        let python = try MotoTools.python()
        let port = try ChildProcesses.unusedPort()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("moto-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let endpoint = "http://127.0.0.1:\(port)"
        var environment = ProcessInfo.processInfo.environment
        environment["MOTO_PORT"] = String(port)
        let server = try WatchedProcess(
            name: "moto", [python, "-m", "moto.server", "-H", "127.0.0.1", "-p", String(port)], removeOnExit: [directory],
            environment: environment, logDirectory: directory)
        do {
            try await MotoTools.waitUntilAnswering(endpoint + "/moto-api/", server)
            let output = try await ChildProcesses.run(
                [python, "-c", MotoTools.setupScript], environment: .adding(MotoTools.clientEnvironment(endpoint: endpoint, key: "setup", secret: "setup").merging(["MOTO_BUCKET": bucket, "MOTO_CHECK_SIGNATURES": signatureChecking ? "1" : "0"]) { $1 }))
            let words = output.split(whereSeparator: \.isWhitespace).map(String.init)
            guard words.count == 6 else { throw ChildProcessFailure("moto's setup printed '\(output)'") }
            return MotoServer(
                endpoint: endpoint, bucket: bucket, words: words, python: python, signatureChecking: signatureChecking, server: server,
                directory: directory)
        } catch {
            await server.stop()
            throw error
        }
    }

    /// The variables that point boto3 and the AWS CLI at this server with the user's keys (and no file or
    /// instance metadata of this machine).
    package var clientEnvironment: [String: String] {
        MotoTools.clientEnvironment(endpoint: endpoint, key: accessKeyID, secret: secretAccessKey)
    }

    /// What moto logged so far.
    package var log: String { server.log }

    package func stop() async { await server.stop() }
}
