import CurlHTTP
import EngineExecution
package import Logging
package import QueryLanguage
import RequestContract

extension WorkerSettings {
    /// The allowlist of ``allowedHosts`` (already validated by ``load(flags:environment:configFile:)``).
    func hostPolicy() throws(HostPolicyError) -> HostPolicy {
        try HostPolicy(allowedHosts: allowedHosts)
    }

    /// The catalog of ``namedQueries`` (built-ins already merged in) and ``allowFreeWhere``.
    package func namedQueryCatalog(limits: ClauseLimits = .default) throws(QueryLanguageError) -> NamedQueryCatalog {
        let queries = namedQueries.sorted { $0.key < $1.key }.map { NamedQuery(name: $0.key, clause: $0.value) }
        return try NamedQueryCatalog(additional: queries, includeBuiltIns: false, allowFreeClauses: allowFreeWhere, limits: limits)
    }

    /// What one request may cost to read, as the decoder checks it: ``Limits/maxRequestBytes``,
    /// ``Limits/maxTargets`` and ``Limits/maxLayers``.
    var requestLimits: RequestLimits {
        RequestLimits(maxMessageBytes: limits.maxRequestBytes, maxTargets: limits.maxTargets, maxLayers: limits.maxLayers)
    }

    /// An HTTP client configuration with the HTTP timeouts, the host policy's connect-time check and a response
    /// size cap of ``Limits/maxResultTotalBytes``, on top of `base`.
    ///
    /// The cap: a response is held whole before it is parsed, and one larger than a request's whole result
    /// budget cannot fit in a result anyway, so it is refused as it arrives (`limit_exceeded`) instead of being
    /// buffered (the HTTP client's own default is 512 MiB: a layer or proxy sending 100 MB would cost that much
    /// memory per request in flight).
    func httpClientConfiguration(
        base: HTTPClientConfiguration = HTTPClientConfiguration()
    ) throws(HostPolicyError) -> HTTPClientConfiguration {
        var configuration = base
        configuration.connectTimeout = timeouts.httpConnect
        configuration.timeout = timeouts.http
        configuration.maxResponseSize = min(configuration.maxResponseSize, limits.maxResultTotalBytes)
        configuration.connectionPolicy = try hostPolicy().connectionPolicy
        return configuration
    }

    /// The effective settings as log metadata for the start-up line. librdkafka properties whose names
    /// mark secrets are redacted here too, not only by the log handler.
    package var logMetadata: Logger.Metadata {
        var kafka: Logger.Metadata = [:]
        for (property, value) in kafkaProperties {
            kafka[property] = .string(SettingsRedaction.isSecret(property) ? "<redacted>" : value)
        }
        return [
            "bootstrapServers": .array(bootstrapServers.map { .string($0) }),
            "groupId": .string(groupID),
            "workerId": .string(workerID),
            "topics": [
                "requests": .string(topics.requests), "results": .string(topics.results), "errors": .string(topics.errors),
                "progress": .string(topics.progress),
            ],
            "allowedHosts": .array(allowedHosts.map { .string($0) }),
            "maxInFlight": .stringConvertible(limits.maxInFlight),
            "lowMark": .stringConvertible(limits.lowMark),
            "maxRequestBytes": .stringConvertible(limits.maxRequestBytes),
            "maxResultBytes": .stringConvertible(limits.maxResultBytes),
            "maxResultTotalBytes": .stringConvertible(limits.maxResultTotalBytes),
            "maxTargets": .stringConvertible(limits.maxTargets),
            "maxLayers": .stringConvertible(limits.maxLayers),
            "maxRequestsPerHost": .stringConvertible(limits.maxRequestsPerHost),
            "revokeTimeout": .string("\(timeouts.revoke)"),
            "shutdownTimeout": .string("\(timeouts.shutdown)"),
            "requestTimeout": .string("\(timeouts.request)"),
            "maxRequestAge": .string("\(timeouts.maxRequestAge)"),
            "httpConnectTimeout": .string("\(timeouts.httpConnect)"),
            "httpTimeout": .string("\(timeouts.http)"),
            "summaryInterval": .string("\(summaryInterval)"),
            "memoryTrimInterval": .string("\(memoryTrimInterval)"),
            "namedQueries": .array(namedQueries.keys.sorted().map { .string($0) }),
            "allowFreeWhere": .stringConvertible(allowFreeWhere),
            "kafka": .dictionary(kafka),
            "logLevel": .string(logLevel.rawValue),
            "httpLoopRunsRequests": .stringConvertible(httpLoopRunsRequests),
            "exactlyOnce": .stringConvertible(exactlyOnce.enabled),
            "transactionalId": .string(exactlyOnce.enabled ? exactlyOnce.transactionalID(groupID: groupID, workerID: workerID) : "none"),
            "transactionInterval": .string("\(exactlyOnce.interval)"),
            "credentialsFile": .string(credentialsFile ?? "none"),
            "otlpEndpoint": .string(otlpEndpoint.map(TracedURL.withoutQuery) ?? "none"),
            "readAheadMessages": .stringConvertible(buffers.readAheadMessages),
            "readAheadBytes": .stringConvertible(buffers.readAheadBytes),
            "producerQueueMessages": .stringConvertible(buffers.producerQueueMessages),
            "producerQueueBytes": .stringConvertible(buffers.producerQueueBytes),
            "opsPort": .stringConvertible(operations.port),
            "opsAddress": .string(operations.address),
            // Where results go, never with what credentials (those are the AWS environment's, not settings).
            "resultStore": .string(resultStore.location ?? "none"),
            "resultStoreEndpoint": .string(resultStore.endpoint ?? "none"),
            "resultStoreThreshold": .stringConvertible(resultStore.thresholdBytes),
            "resultStorePartBytes": .stringConvertible(resultStore.partBytes),
            "resultStoreUrlLifetime": .string("\(resultStore.urlLifetime)"),
        ]
    }
}
