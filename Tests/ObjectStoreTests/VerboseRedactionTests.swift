import CurlHTTP
import Logging
import ObjectStore
import ObjectStoreFixture
import Synchronization
import Testing

/// libcurl's verbose output of signed requests, at `.trace`, against moto checking signatures: the request heads
/// are logged, but never the signature, the secret or the session token.
@Suite("Verbose output of signed requests")
struct VerboseRedactionTests {
    @Test func signatureAndTokenAreRedacted() async throws {
        let moto = try await SharedMoto.server()
        let key = try #require(moto.temporaryAccessKeyID), secret = try #require(moto.temporarySecretAccessKey)
        let token = try #require(moto.temporarySessionToken)
        let lines = LogLines()
        var logger = Logger(label: "verbose") { _ in LinesHandler(lines: lines) }
        logger.logLevel = .trace
        let object = ObjectStoreTestSupport.uniqueKey("verbose")
        let credentials = AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token)
        _ = try await ObjectStoreTestSupport.withClient(moto, credentials: credentials, logger: logger) { s3 in
            try await s3.putObject(key: object, body: Array("traced".utf8))
        }
        let logged = lines.all
        let authorization = logged.filter { $0.lowercased().contains("> authorization:") }
        #expect(authorization.count == 1, "the request head was logged: \(logged.prefix(20))")
        #expect(authorization.allSatisfy { $0.hasSuffix(CurlVerboseRedaction.placeholder) })
        #expect(logged.contains { $0.lowercased().contains("x-amz-security-token: \(CurlVerboseRedaction.placeholder)") })
        #expect(!logged.contains { $0.contains(token) || $0.contains(secret) || $0.contains("Signature=") })
    }
}

/// The lines a logger received.
final class LogLines: Sendable {
    private let lines = Mutex<[String]>([])
    func add(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
}

struct LinesHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) { lines.add(event.message.description) }
}
