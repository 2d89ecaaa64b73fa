import Credentials
import Foundation
import Testing

@testable import QueryWorker

/// deploy/kubernetes: valid for the API server, and consistent with the worker it runs (its settings loader,
/// its shutdown budget, its ops port) and with itself (ports, selectors, autoscaler and partitions).
@Suite("deploy/kubernetes manifests", .enabled(if: KubernetesFixture.validatorEnabled))
struct KubernetesManifestTests {
    @Test(arguments: ManifestSet.all)
    func rendersAndValidatesOffline(_ set: ManifestSet) throws {
        let rendered = try set.render()
        #expect(rendered.errors == [])
        for kind in ["ConfigMap", "Deployment", "Service", "PodDisruptionBudget"] {
            #expect(rendered.all(kind).count == 1, "\(set.name): \(rendered.all(kind).count) \(kind)")
        }
        if set.components.contains("components/monitoring") || set.overlay != nil {
            #expect(rendered.all("ServiceMonitor").count == 1 && rendered.all("PrometheusRule").count == 1)
        }
    }

    /// The renderer is a subset of kustomize written for these manifests; kubectl's kustomize, where it is
    /// installed (it is not in Debian), must produce exactly the same resources.
    @Test(.enabled(if: KubernetesFixture.kubectl != nil), arguments: ManifestSet.all)
    func rendererAgreesWithKubectl(_ set: ManifestSet) throws {
        #expect(try set.render(comparingWithKubectl: true).kubectl == "same")
    }

    /// A KEDA ScaledObject creates its own HPA: with a second HPA on the same Deployment the two fight over
    /// its replicas. The example picks one.
    @Test(arguments: ManifestSet.all)
    func neverTwoAutoscalers(_ set: ManifestSet) throws {
        let rendered = try set.render()
        let autoscalers = rendered.all("ScaledObject").count + rendered.all("HorizontalPodAutoscaler").count
        #expect(autoscalers == 1, "\(set.name) has \(autoscalers) autoscalers")
    }

    @Test(arguments: ManifestSet.all)
    func probesServiceAndMonitorUseTheOpsPort(_ set: ManifestSet) throws {
        let rendered = try set.render()
        let container = try rendered.workerContainer()
        let ports = try #require(container["ports"] as? [[String: Any]])
        let ops = try #require(ports.first { $0["name"] as? String == "ops" }, "no container port named ops")
        let opsPort = try #require(ops["containerPort"] as? Int)
        let environment = try #require(container["env"] as? [[String: Any]])
        let configured = environment.first { $0["name"] as? String == SettingsKey.opsPortVariable }?["value"] as? String
        #expect(configured == String(opsPort), "\(SettingsKey.opsPortVariable) \(configured ?? "unset") ≠ container port \(opsPort)")

        for (probe, path) in [("livenessProbe", "/health/live"), ("readinessProbe", "/health/ready"), ("startupProbe", "/health/live")] {
            let get = try #require(at(container, probe, "httpGet") as? [String: Any], "no \(probe)")
            #expect(get["path"] as? String == path)
            #expect(Self.port(get["port"], in: ports) == opsPort, "\(probe) is not on the ops port")
        }

        let service = try rendered.one("Service")
        let servicePorts = try #require(at(service, "spec", "ports") as? [[String: Any]])
        let servicePort = try #require(servicePorts.first { $0["name"] as? String == "ops" }, "the Service has no port named ops")
        #expect(Self.port(servicePort["targetPort"], in: ports) == opsPort)
        for monitor in rendered.all("ServiceMonitor") {
            let endpoints = try #require(at(monitor, "spec", "endpoints") as? [[String: Any]])
            #expect(endpoints.map { $0["port"] as? String } == ["ops"])
            #expect(endpoints.first?["path"] as? String == "/metrics")
            #expect(selects(at(monitor, "spec", "selector", "matchLabels"), at(service, "metadata", "labels")))
        }
    }

    /// The Deployment, Service and PodDisruptionBudget all reach the worker's pods.
    @Test(arguments: ManifestSet.all)
    func selectorsReachTheWorkerPods(_ set: ManifestSet) throws {
        let rendered = try set.render()
        let deployment = try rendered.one("Deployment")
        let podLabels = at(deployment, "spec", "template", "metadata", "labels")
        #expect(selects(at(deployment, "spec", "selector", "matchLabels"), podLabels))
        #expect(selects(at(try rendered.one("Service"), "spec", "selector"), podLabels))
        #expect(selects(at(try rendered.one("PodDisruptionBudget"), "spec", "selector", "matchLabels"), podLabels))
        #expect(selects(["app.kubernetes.io/name": "other"], podLabels) == false)
    }

    /// The ConfigMap's settings file, with the Deployment's environment, is what the worker's own loader
    /// accepts: no unknown key, no ignored variable, and the config file variable names the mounted file.
    @Test(arguments: ManifestSet.all)
    func settingsLoadWithTheDeploymentsEnvironment(_ set: ManifestSet) throws {
        let rendered = try set.render()
        let (loaded, declaredCredentialsFile) = try Self.loadSettings(rendered)
        #expect(loaded.ignoredEnvironmentVariables == [])
        // The kubelet probes the pod's IP: the endpoint must be on, on the container's port, on every interface.
        let opsPort = try #require(
            (try rendered.workerContainer()["ports"] as? [[String: Any]])?.first { $0["name"] as? String == "ops" }?["containerPort"] as? Int)
        #expect(loaded.settings.operations.port == opsPort)
        #expect(loaded.settings.operations.address == "0.0.0.0")

        let container = try rendered.workerContainer()
        let mounts = try #require(container["volumeMounts"] as? [[String: Any]])
        let volumes = try #require(at(try rendered.one("Deployment"), "spec", "template", "spec", "volumes") as? [[String: Any]])
        let configMapName = try #require(at(try rendered.one("ConfigMap"), "metadata", "name") as? String)
        let settingsVolume = try #require(volumes.first { at($0, "configMap", "name") as? String == configMapName })
        let settingsMount = try #require(mounts.first { $0["name"] as? String == settingsVolume["name"] as? String })
        let mountPath = try #require(settingsMount["mountPath"] as? String)
        let configFile = Self.environment(of: container)[SettingsKey.configFileVariable]
        #expect(configFile == mountPath + "/settings.json")

        // The credentials file is in the Secret's folder (mounted whole: a subPath mount never updates).
        let secretVolume = try #require(volumes.first { at($0, "secret", "secretName") as? String == "query-worker-credentials" })
        let secretMount = try #require(mounts.first { $0["name"] as? String == secretVolume["name"] as? String })
        #expect(secretMount["subPath"] == nil && secretMount["readOnly"] as? Bool == true)
        let secretPath = try #require(secretMount["mountPath"] as? String)
        let credentialsFile = try #require(declaredCredentialsFile)
        #expect(loaded.settings.credentialsFile != nil)
        #expect(credentialsFile.hasPrefix(secretPath + "/"), "\(credentialsFile) is not in the Secret's folder \(secretPath)")
        #expect(at(try rendered.one("Deployment"), "spec", "template", "spec", "enableServiceLinks") as? Bool == false)
    }

    /// Kubernetes kills a container `terminationGracePeriodSeconds` after SIGTERM; the worker's shutdown is
    /// bounded by `ShutdownBudget.total` (shutdownTimeout + 20 s). The grace must cover it, with a few
    /// seconds for the runtime.
    @Test(arguments: ManifestSet.all)
    func terminationGraceCoversTheShutdownBudget(_ set: ManifestSet) throws {
        let rendered = try set.render()
        let loaded = try Self.loadSettings(rendered).loaded
        let grace = try #require(at(try rendered.one("Deployment"), "spec", "template", "spec", "terminationGracePeriodSeconds") as? Int)
        let total = ShutdownBudget(shutdownTimeout: loaded.settings.timeouts.shutdown).total.components.seconds
        #expect(Int64(grace) >= total + 5, "grace \(grace) s < shutdown budget \(total) s + 5 s")
        #expect(total > loaded.settings.timeouts.shutdown.components.seconds)
    }

    /// The autoscaler reads the workers' cluster, group and topic, never goes past the partitions, and asks
    /// for more replicas only when the lag is more than one replica's requests in flight.
    @Test(arguments: ManifestSet.all)
    func autoscalerFollowsSettingsAndPartitions(_ set: ManifestSet) throws {
        let rendered = try set.render()
        let settings = try Self.loadSettings(rendered).loaded.settings
        let partitions = try rendered.requestTopicPartitions()
        let deploymentName = try #require(at(try rendered.one("Deployment"), "metadata", "name") as? String)
        for scaled in rendered.all("ScaledObject") {
            #expect(at(scaled, "spec", "scaleTargetRef", "name") as? String == deploymentName)
            let maxReplicas = try #require(at(scaled, "spec", "maxReplicaCount") as? Int)
            let minReplicas = try #require(at(scaled, "spec", "minReplicaCount") as? Int)
            #expect(maxReplicas <= partitions, "maxReplicaCount \(maxReplicas) > \(partitions) partitions")
            #expect(1 <= minReplicas && minReplicas <= maxReplicas)
            let triggers = try #require(at(scaled, "spec", "triggers") as? [[String: Any]])
            try #require(triggers.count == 1)
            let metadata = try #require(triggers[0]["metadata"] as? [String: String])
            #expect(triggers[0]["type"] as? String == "kafka")
            #expect(metadata["bootstrapServers"] == settings.bootstrapServers.joined(separator: ","))
            #expect(metadata["consumerGroup"] == settings.groupID)
            #expect(metadata["topic"] == settings.topics.requests)
            #expect(metadata["allowIdleConsumers"] == "false")
            let threshold = try #require(metadata["lagThreshold"].flatMap { Int($0) })
            #expect(threshold >= settings.limits.maxInFlight, "lagThreshold \(threshold) < maxInFlight \(settings.limits.maxInFlight)")
        }
        for hpa in rendered.all("HorizontalPodAutoscaler") {
            #expect(at(hpa, "spec", "scaleTargetRef", "name") as? String == deploymentName)
            #expect(at(hpa, "spec", "scaleTargetRef", "kind") as? String == "Deployment")
            let maxReplicas = try #require(at(hpa, "spec", "maxReplicas") as? Int)
            #expect(maxReplicas <= partitions, "maxReplicas \(maxReplicas) > \(partitions) partitions")
            let metrics = try #require(at(hpa, "spec", "metrics") as? [[String: Any]])
            try #require(metrics.count == 1)
            #expect(at(metrics[0], "external", "metric", "name") as? String == "query_worker_consumer_lag")
            #expect(at(metrics[0], "external", "metric", "selector", "matchLabels", "topic") as? String == settings.topics.requests)
            #expect(at(metrics[0], "external", "target", "type") as? String == "AverageValue")
            let average = try #require((at(metrics[0], "external", "target", "averageValue") as? String).flatMap { Int($0) })
            #expect(average >= settings.limits.maxInFlight)
        }
    }

    /// Secrets go in the Secret: never in a ConfigMap, nor as a plain value in the pod's environment.
    @Test(arguments: ManifestSet.all)
    func noSecretsInConfigMapsOrPlainEnvironment(_ set: ManifestSet) throws {
        let rendered = try set.render()
        let secretWords = ["password", "secret", "token", "apikey", "api_key", "sasl", "private"]
        for configMap in rendered.all("ConfigMap") {
            let data = configMap["data"] as? [String: String] ?? [:]
            for (name, text) in data {
                let keys = Self.keys(of: try? JSONSerialization.jsonObject(with: Data(text.utf8))) + [name]
                let suspicious = keys.filter { key in secretWords.contains { key.lowercased().contains($0) } }
                #expect(suspicious == [], "ConfigMap key \(name) holds \(suspicious)")
            }
        }
        let container = try rendered.workerContainer()
        for variable in container["env"] as? [[String: Any]] ?? [] {
            let name = (variable["name"] as? String ?? "").lowercased()
            if secretWords.contains(where: { name.contains($0) }) {
                #expect(variable["value"] == nil, "\(name) is a plain value: use valueFrom.secretKeyRef")
            }
        }
        #expect(Self.keys(of: ["kafka": ["sasl.password": "x"]]).contains("kafka.sasl.password"))
    }

    /// The example overlay: its namespace, its image, and an example credentials file the worker accepts,
    /// whose secrets are files in the mounted Secret.
    @Test func exampleOverlaySetsNamespaceImageAndCredentials() throws {
        let rendered = try ManifestSet.example.render()
        for resource in rendered.resources {
            #expect(at(resource, "metadata", "namespace") as? String == "feature-query", "\(resource["kind"] ?? "?") outside feature-query")
        }
        #expect(try rendered.workerContainer()["image"] as? String == "registry.example.com/feature-query-worker:1.0.0")
        #expect(try rendered.requestTopicPartitions() == 12)

        let file = KubernetesFixture.manifests.appendingPathComponent("overlays/example/credentials.json")
        let bytes = try Data(contentsOf: file)
        let store = try CredentialsFile.decode(Array(bytes))
        #expect(store.all.map(\.name) == ["gis-token"])
        let folder = try #require(try Self.loadSettings(rendered).credentialsFile.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
        let secretFiles = Self.values(ofKey: "file", in: try JSONSerialization.jsonObject(with: bytes))
        #expect(!secretFiles.isEmpty)
        for path in secretFiles {
            #expect(path.hasPrefix(folder + "/"), "\(path) is not in the credentials Secret's folder \(folder)")
        }
    }

    // MARK: - Helpers

    /// The container's plain environment, valueFrom entries as placeholders.
    static func environment(of container: [String: Any]) -> [String: String] {
        var result: [String: String] = [:]
        for variable in container["env"] as? [[String: Any]] ?? [] {
            guard let name = variable["name"] as? String else { continue }
            result[name] = variable["value"] as? String ?? "from-\(name.lowercased())"
        }
        return result
    }

    /// The worker's settings loaded as the pod would: the Deployment's environment and the ConfigMap's file.
    /// The loader checks that the credentials file is readable, and the Secret's folder is not here: the file
    /// is loaded with the path replaced by an empty credentials file's, and the declared path is returned.
    static func loadSettings(_ rendered: Rendered) throws -> (loaded: WorkerSettings.Loaded, credentialsFile: String?) {
        let scratch = try KubernetesFixture.temporaryDirectory("settings")
        defer { try? FileManager.default.removeItem(at: scratch) }
        var json = try rendered.settingsFile().json
        let declared = json["credentialsFile"] as? String
        if declared != nil {
            let credentials = scratch.appendingPathComponent("credentials.json")
            try Data(#"{"credentials": []}"#.utf8).write(to: credentials)
            json["credentialsFile"] = credentials.path
        }
        let file = scratch.appendingPathComponent("settings.json")
        try JSONSerialization.data(withJSONObject: json).write(to: file)
        var environment = environment(of: try rendered.workerContainer())
        environment[SettingsKey.configFileVariable] = nil
        return (try WorkerSettings.load(flags: [:], environment: environment, configFile: file.path), declared)
    }

    /// A probe's or Service's port (a number, or a container port's name) as a number.
    static func port(_ value: Any?, in ports: [[String: Any]]) -> Int? {
        if let number = value as? Int { return number }
        guard let name = value as? String else { return nil }
        return ports.first { $0["name"] as? String == name }?["containerPort"] as? Int
    }

    /// Dotted keys of every member of nested objects.
    static func keys(of json: Any?, prefix: String = "") -> [String] {
        guard let object = json as? [String: Any] else { return [] }
        return object.flatMap { key, value in
            let dotted = prefix.isEmpty ? key : prefix + "." + key
            return [dotted] + keys(of: value, prefix: dotted)
        }
    }

    /// Every string value of members named `key`, at any depth.
    static func values(ofKey key: String, in json: Any?) -> [String] {
        if let object = json as? [String: Any] {
            return object.flatMap { name, value in (name == key ? [value as? String].compactMap { $0 } : []) + values(ofKey: key, in: value) }
        }
        if let list = json as? [Any] { return list.flatMap { values(ofKey: key, in: $0) } }
        return []
    }
}

extension SettingsKey {
    /// The ops port's variable (QUERY_WORKER_OPS_PORT).
    static var opsPortVariable: String { SettingsKey.opsPort.environmentVariable }
    /// The ops address's variable (QUERY_WORKER_OPS_ADDRESS).
    static var opsAddressVariable: String { SettingsKey.opsAddress.environmentVariable }
}
