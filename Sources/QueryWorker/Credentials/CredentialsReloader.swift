import Credentials
import Logging
import ServiceLifecycle
import RequestContract

/// Watches the credentials file and hands each new valid version to the worker's current credentials
/// (``CurrentCredentials/replace(store:)``), so new requests use it within about two seconds.
///
/// It polls (every ``interval``) instead of using inotify: a Kubernetes volume update swaps a symlink, an
/// editor saves by rename, and a network file system sends no events at all; reading a small file each second
/// sees every one of them. A version that does not validate keeps the current configuration and is logged
/// with the credential and field at fault, never a value. Run it in the worker's service group.
final class CredentialsReloader: Service {
    let watch: CredentialsWatch
    let target: any CurrentCredentials
    /// How often the file is read.
    let interval: Duration
    let logger: Logger

    /// A reloader of the file `credentials` were loaded from, resolving secrets as they were at start; `nil`
    /// for a worker without a credentials file.
    convenience init?(
        credentials: WorkerCredentials, target: any CurrentCredentials, interval: Duration = .seconds(1), logger: Logger
    ) {
        guard let path = credentials.path else { return nil }
        let watch = CredentialsWatch(
            path: path, started: credentials.version, kerberos: credentials.kerberos, resolver: credentials.resolver)
        self.init(watch: watch, target: target, interval: interval, logger: logger)
    }

    init(watch: CredentialsWatch, target: any CurrentCredentials, interval: Duration, logger: Logger) {
        self.watch = watch
        self.target = target
        self.interval = interval
        self.logger = logger
    }

    /// Looks at the file every ``interval`` until the group shuts down or the task is cancelled.
    func run() async throws {
        let (initial, target, interval, logger) = (watch, target, interval, logger)
        do {
            try await cancelWhenGracefulShutdown { () async throws -> Void in
                var watch = initial
                while true {
                    try await Task.sleep(for: interval)
                    await Self.apply(watch.look(), to: target, path: watch.path, logger: logger)
                }
            }
        } catch is CancellationError {
            // Shutdown: nothing to finish.
        }
    }

    static func apply(
        _ change: CredentialsWatch.Change, to target: any CurrentCredentials, path: String, logger: Logger
    ) async {
        switch change {
        case .unchanged:
            break
        case .reloaded(let store):
            await target.replace(store: store)
            logger.notice(
                "credentials reloaded",
                metadata: ["credentialsFile": .string(path), "credentials": .array(store.all.map(WorkerCredentials.metadata))])
        case .refused(let error):
            var metadata: Logger.Metadata = [
                "credentialsFile": .string(path), "code": .string(error.code.rawValue), "error": .string(error.message),
            ]
            if let credential = error.credential { metadata["credential"] = .string(credential) }
            if let field = error.field { metadata["field"] = .string(field) }
            logger.error("credentials file not reloaded: it does not validate; the previous credentials stay in use", metadata: metadata)
        }
    }
}
