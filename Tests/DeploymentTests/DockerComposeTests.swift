import Foundation
import Testing
import Yams

/// Repository root: three levels up from Tests/DeploymentTests/DockerComposeTests.swift.
private let repoRoot = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent()
    .deletingLastPathComponent()
    .deletingLastPathComponent()

private func readRepoFile(_ relativePath: String) throws -> String {
    try String(contentsOf: repoRoot.appendingPathComponent(relativePath), encoding: .utf8)
}

private func loadCompose() throws -> [String: Any] {
    try #require(try Yams.load(yaml: readRepoFile("docker-compose.yml")) as? [String: Any])
}

private func service(_ name: String) throws -> [String: Any] {
    let services = try #require(loadCompose()["services"] as? [String: Any])
    return try #require(services[name] as? [String: Any], "no service named \(name)")
}

/// A service's environment; compose allows both a map and a list of `KEY=VALUE`.
private func environment(of service: [String: Any]) -> [String: String] {
    if let map = service["environment"] as? [String: Any] {
        return map.mapValues { "\($0)" }
    }
    var result: [String: String] = [:]
    for entry in service["environment"] as? [Any] ?? [] {
        let parts = "\(entry)".split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
        result[String(parts[0])] = parts.count > 1 ? String(parts[1]) : ""
    }
    return result
}

/// A string-or-list compose field (command, entrypoint, healthcheck.test) as one string.
private func joined(_ value: Any?) -> String {
    if let list = value as? [Any] { return list.map { "\($0)" }.joined(separator: " ") }
    return value.map { "\($0)" } ?? ""
}

/// Seconds in a compose duration (`55s`, `1m30s`, `1h`, `500ms`) or a worker duration (`30s`, `1.5m`, `2h`, a
/// bare number of seconds); nil when it is neither.
private func seconds(_ text: String) -> Double? {
    if let bare = Double(text) { return bare }
    var total = 0.0
    var rest = Substring(text.trimmingCharacters(in: .whitespaces))
    guard !rest.isEmpty else { return nil }
    while !rest.isEmpty {
        let number = rest.prefix { $0.isNumber || $0 == "." }
        rest = rest.dropFirst(number.count)
        let unit = rest.prefix { $0.isLetter }
        rest = rest.dropFirst(unit.count)
        guard let value = Double(number) else { return nil }
        switch unit {
        case "h": total += value * 3600
        case "m": total += value * 60
        case "s": total += value
        case "ms": total += value / 1000
        default: return nil
        }
    }
    return total
}

@Suite("docker-compose.yml and deploy/Dockerfile")
struct DockerComposeTests {
    @Test func composeFileHasNoObsoleteVersionKey() throws {
        #expect(try loadCompose()["version"] == nil)
    }

    @Test func kafkaUsesOfficialImageInKRaftMode() throws {
        let kafka = try service("kafka")
        let image = try #require(kafka["image"] as? String)
        #expect(image.hasPrefix("apache/kafka"))

        let env = environment(of: kafka)
        let roles = try #require(env["KAFKA_PROCESS_ROLES"]).split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(roles.contains("broker"))
        #expect(roles.contains("controller"))
        #expect(!(env["KAFKA_CONTROLLER_QUORUM_VOTERS"] ?? "").isEmpty)
        #expect(env["KAFKA_NODE_ID"] != nil)
        #expect(env["KAFKA_CONTROLLER_LISTENER_NAMES"] != nil)
        #expect(env["KAFKA_OFFSETS_TOPIC_REPLICATION_FACTOR"] == "1")
        let listeners = env["KAFKA_LISTENERS"] ?? ""
        for port in [":9092", ":9093", ":29092"] {
            #expect(listeners.contains(port), "KAFKA_LISTENERS lacks \(port)")
        }
    }

    @Test func noZookeeperAnywhere() throws {
        let compose = try readRepoFile("docker-compose.yml").lowercased()
        #expect(!compose.contains("zookeeper"))
    }

    @Test func kafkaPublishesPort9092AndHasHealthcheck() throws {
        let kafka = try service("kafka")
        let ports = try #require(kafka["ports"] as? [Any])
        let published = ports.contains { port in
            if let long = port as? [String: Any] { return "\(long["target"] ?? "")" == "9092" }
            let container = "\(port)".split(separator: ":").last.map(String.init) ?? ""
            return container.split(separator: "/").first == "9092"
        }
        #expect(published, "kafka does not publish port 9092")

        let healthcheck = try #require(kafka["healthcheck"] as? [String: Any])
        #expect(joined(healthcheck["test"]).contains("/opt/kafka/bin/kafka-broker-api-versions.sh"))
    }

    @Test(arguments: ["feature-queries", "feature-query-results", "feature-query-errors", "feature-query-progress"])
    func kafkaInitCreatesTopic(_ topic: String) throws {
        let initService = try service("kafka-init")
        let dependsOn = try #require(initService["depends_on"] as? [String: Any])
        let kafkaDependency = try #require(dependsOn["kafka"] as? [String: Any])
        #expect(kafkaDependency["condition"] as? String == "service_healthy")

        let script = joined(initService["entrypoint"]) + "\n" + joined(initService["command"])
        let createLine = try #require(
            script.split(separator: "\n").first { $0.contains("--topic \(topic) ") || $0.hasSuffix("--topic \(topic)") },
            "kafka-init does not create \(topic)"
        )
        #expect(createLine.contains("/opt/kafka/bin/kafka-topics.sh"))
        #expect(createLine.contains("--create"))
        #expect(createLine.contains("--if-not-exists"))
        #expect(createLine.contains("--partitions 6"))
    }

    @Test func queryWorkerBuildsFromDockerfileAndWaitsForInit() throws {
        let worker = try service("query-worker")
        let build = try #require(worker["build"] as? [String: Any])
        #expect(build["dockerfile"] as? String == "deploy/Dockerfile")
        #expect(build["context"] as? String == ".")

        let dependsOn = try #require(worker["depends_on"] as? [String: Any])
        let initDependency = try #require(dependsOn["kafka-init"] as? [String: Any])
        #expect(initDependency["condition"] as? String == "service_completed_successfully")

        let env = environment(of: worker)
        #expect(env["QUERY_WORKER_BOOTSTRAP_SERVERS"] == "kafka:29092")
        #expect(env["QUERY_WORKER_GROUP_ID"] == "feature-query-workers")
        #expect(worker["container_name"] == nil, "a fixed container_name prevents --scale")
    }

    /// The worker denies every host by default, so a compose worker without an allowlist would reject every
    /// request; and the list must not open everything up (`*`, `0.0.0.0/0`).
    @Test func queryWorkerRunsWithANarrowHostAllowlist() throws {
        let worker = try service("query-worker")
        #expect(joined(worker["command"]) == "run")
        let list = try #require(environment(of: worker)["QUERY_WORKER_ALLOWED_HOSTS"], "no QUERY_WORKER_ALLOWED_HOSTS")
        let hosts = list.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(!hosts.isEmpty && hosts.allSatisfy { !$0.isEmpty })
        for host in hosts {
            let wildcardOK = !host.contains("*") || (host.hasPrefix("*.") && host.dropFirst(2).contains("."))
            #expect(wildcardOK, "\(host): wildcards only as *.domain.tld")
            #expect(!host.hasSuffix("/0"), "\(host) allows every address")
        }
    }

    /// Docker's default grace period (10 s) kills a draining worker. The worker's shutdown ends within its
    /// shutdown timeout + 20 s whatever Kafka does (`ShutdownBudget.margin` in QueryWorker; the worker's tests
    /// check that value), so the grace period must cover at least that, for the timeout the compose file sets.
    @Test func stopGracePeriodCoversTheWorkersBoundedShutdown() throws {
        let worker = try service("query-worker")
        let grace = try #require(worker["stop_grace_period"].map { "\($0)" }, "no stop_grace_period: Docker kills after 10 s")
        let graceSeconds = try #require(seconds(grace), "stop_grace_period \(grace) is not a duration")
        // The worker's default shutdown timeout is 30 s; the compose file sets it explicitly so the two move together.
        let timeout = environment(of: worker)["QUERY_WORKER_SHUTDOWN_TIMEOUT"] ?? "30s"
        let timeoutSeconds = try #require(seconds(timeout), "QUERY_WORKER_SHUTDOWN_TIMEOUT \(timeout) is not a duration")
        let shutdownMargin = 20.0
        #expect(graceSeconds >= timeoutSeconds + shutdownMargin, "stop_grace_period \(grace) < shutdown timeout \(timeout) + 20 s")
        #expect(seconds("1m30s") == 90 && seconds("500ms") == 0.5 && seconds("2") == 2 && seconds("ten") == nil)
    }

    @Test func dockerfileFinalStageIsSlimDebianRunningQueryWorker() throws {
        let lines = try readRepoFile("deploy/Dockerfile")
            .split(separator: "\n")
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.hasPrefix("#") }
        let fromIndices = lines.indices.filter { lines[$0].uppercased().hasPrefix("FROM ") }
        let firstFrom = try #require(fromIndices.first)
        let lastFrom = try #require(fromIndices.last)
        #expect(fromIndices.count >= 2, "expected a multi-stage build")
        #expect(lines[firstFrom].contains("swift:"))
        #expect(lines[lastFrom].contains("debian:bookworm-slim"))

        let finalStage = lines[lastFrom...]
        let entrypoint = try #require(finalStage.first { $0.uppercased().hasPrefix("ENTRYPOINT") })
        #expect(entrypoint.contains("query-worker"))
        let user = try #require(finalStage.first { $0.uppercased().hasPrefix("USER ") })
        #expect(!user.contains("root"))
    }
}
