import FeatureQuerySupport
import Logging

extension SettingsKey {
    /// The value the worker runs on when no source sets this key, written as the key's value is written
    /// (`10s`, `1MiB`, `localhost:9092`), or in words where it depends on something else (`hostname-pid`).
    ///
    /// Taken from ``WorkerSettings``' own defaults, so `--help` (which lists it) cannot drift from them.
    package var defaultText: String { Self.defaultTexts[name] ?? "none" }

    /// ``defaultText`` by key name; the tests check that every key in ``all`` has one.
    static let defaultTexts: [String: String] = {
        let defaults = WorkerSettings()
        let texts: [String: String] = [
            bootstrapServers.name: defaults.bootstrapServers.joined(separator: ","),
            groupID.name: defaults.groupID,
            workerID.name: "hostname-pid",
            requestsTopic.name: defaults.topics.requests,
            resultsTopic.name: defaults.topics.results,
            errorsTopic.name: defaults.topics.errors,
            progressTopic.name: defaults.topics.progress,
            allowedHosts.name: defaults.allowedHosts.isEmpty ? "none (every host is refused)" : defaults.allowedHosts.joined(separator: ","),
            maxInFlight.name: String(defaults.limits.maxInFlight),
            lowMark.name: "three quarters of maxInFlight",
            maxRequestBytes.name: sizeText(defaults.limits.maxRequestBytes),
            maxResultBytes.name: sizeText(defaults.limits.maxResultBytes),
            maxResultTotalBytes.name: sizeText(defaults.limits.maxResultTotalBytes),
            maxTargets.name: String(defaults.limits.maxTargets),
            maxLayers.name: String(defaults.limits.maxLayers),
            maxRequestsPerHost.name: String(defaults.limits.maxRequestsPerHost),
            revokeTimeout.name: durationText(defaults.timeouts.revoke),
            shutdownTimeout.name: durationText(defaults.timeouts.shutdown),
            requestTimeout.name: durationText(defaults.timeouts.request),
            maxRequestAge.name: durationText(defaults.timeouts.maxRequestAge),
            httpConnectTimeout.name: durationText(defaults.timeouts.httpConnect),
            httpTimeout.name: durationText(defaults.timeouts.http),
            summaryInterval.name: durationText(defaults.summaryInterval),
            memoryTrimInterval.name: durationText(defaults.memoryTrimInterval),
            // Not a field of WorkerSettings: the loader includes the built-ins unless told otherwise.
            includeBuiltInQueries.name: "true",
            allowFreeWhere.name: String(defaults.allowFreeWhere),
            logLevel.name: defaults.logLevel.rawValue,
            credentialsFile.name: "none (requests naming a credential are rejected: unknown_credential)",
            otlpEndpoint.name: "none (no spans exported; trace context is still propagated)",
            httpLoopRunsRequests.name: String(defaults.httpLoopRunsRequests),
            fetchWaitMax.name: "none (500ms, librdkafka's; 2ms when the cluster is the embedded one)",
            staticMembership.name: String(defaults.staticMembership),
        ]
        return texts.merging(bufferDefaultTexts(defaults)) { first, _ in first }
            .merging(operationsDefaultTexts(defaults)) { first, _ in first }
            .merging(exactlyOnceDefaultTexts(defaults)) { first, _ in first }
            .merging(resultStoreDefaultTexts(defaults)) { first, _ in first }
    }()

    /// `1MiB`, `512KiB`, or bytes: the largest binary unit that divides the size.
    static func sizeText(_ bytes: Int) -> String {
        if bytes > 0, bytes % (1 << 30) == 0 { return "\(bytes >> 30)GiB" }
        if bytes > 0, bytes % (1 << 20) == 0 { return "\(bytes >> 20)MiB" }
        if bytes > 0, bytes % (1 << 10) == 0 { return "\(bytes >> 10)KiB" }
        return String(bytes)
    }

    /// `30s`, or `250ms` for durations that are not whole seconds.
    static func durationText(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return attoseconds == 0 ? "\(seconds)s" : "\(duration.clampedMilliseconds)ms"
    }
}
