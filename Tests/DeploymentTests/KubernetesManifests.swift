import ChildProcessFixture
import Foundation
import Synchronization
import Testing

/// The Kubernetes manifests of `deploy/kubernetes`, rendered and validated offline by
/// `Fixtures/kubernetes/kube_check.py` (kustomize's subset the manifests use; kubernetes-validate for built-in
/// kinds; the vendored CRDs' schemas for KEDA and the Prometheus Operator).
///
/// The script runs with the Python of `QUERY_WORKER_PYTHON` or the repository's `.venv` (scripts/setup-deps
/// installs kubernetes-validate there). Without it the tests that need it are skipped, unless
/// `QUERY_WORKER_REQUIRE_INTEROP=1` (scripts/test sets it): then they fail.
enum KubernetesFixture {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let manifests = repositoryRoot.appendingPathComponent("deploy/kubernetes")
    static let fixtures = repositoryRoot.appendingPathComponent("Tests/DeploymentTests/Fixtures/kubernetes")
    /// The Kubernetes version the built-in kinds are validated against: the oldest the manifests support
    /// (the PodDisruptionBudget's `unhealthyPodEvictionPolicy` is GA in 1.31).
    static let kubernetesVersion = "1.31.0"

    static var interopRequired: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_INTEROP"] == "1" }

    static var python: String? { ChildProcesses.python }

    /// Whether the validator can run (or its absence must fail the run).
    static let validatorEnabled: Bool = {
        if interopRequired { return true }
        guard let python else { return false }
        return (try? run(python, ["-c", "import kubernetes_validate, jsonschema, yaml"]).status) == 0
    }()

    /// A program on PATH, if there is one.
    static func onPath(_ name: String) -> String? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        return path.split(separator: ":").map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Debian's prometheus package (scripts/setup-deps) brings promtool.
    static let promtool = onPath("promtool")
    /// kubectl is not in Debian; where it is installed, its kustomize checks the Python renderer.
    static let kubectl = onPath("kubectl")

    typealias Output = ChildOutput

    /// Runs a program to completion (killed after `timeout` seconds) in `directory`.
    static func run(_ executable: String, _ arguments: [String], in directory: URL? = nil, timeout: Double = 120) throws -> Output {
        try ChildProcesses.completeBlocking([executable] + arguments, workingDirectory: directory?.path, timeout: .seconds(timeout))
    }

    static func temporaryDirectory(_ purpose: String) throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("k8s-\(purpose)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }
}

/// One way to deploy: a kustomization in the repository, or the base with some components (composed in a
/// temporary kustomization that points back into the repository with relative paths, as kustomize requires).
struct ManifestSet: Sendable, CustomTestStringConvertible {
    var name: String
    var overlay: String?
    var components: [String] = []

    var testDescription: String { name }

    /// The example overlay: KEDA and monitoring.
    static let example = ManifestSet(name: "overlays/example", overlay: "overlays/example")
    /// The HPA alternative with monitoring, on the bare base.
    static let hpa = ManifestSet(name: "base + hpa + monitoring", components: ["components/hpa", "components/monitoring"])
    /// KEDA alone on the bare base.
    static let keda = ManifestSet(name: "base + keda", components: ["components/keda"])
    static let all = [example, hpa, keda]

    /// Renders and validates it.
    func render(comparingWithKubectl: Bool = false) throws -> Rendered {
        let cacheKey = "\(name) \(comparingWithKubectl)"
        if let stdout = Self.renders.withLock({ $0[cacheKey] }) { return try Self.parse(stdout) }
        let python = try #require(KubernetesFixture.python, "no Python: run scripts/setup-deps, or set QUERY_WORKER_PYTHON")
        let scratch = try KubernetesFixture.temporaryDirectory("render")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let directory: String
        if let overlay {
            directory = KubernetesFixture.manifests.appendingPathComponent(overlay).path
        } else {
            // Relative paths: kustomize refuses absolute ones. The scratch folder's depth below / gives the way up.
            let up = String(repeating: "../", count: scratch.standardizedFileURL.pathComponents.count - 1)
            let root = up + KubernetesFixture.manifests.standardizedFileURL.path.dropFirst()
            let kustomization = """
                apiVersion: kustomize.config.k8s.io/v1beta1
                kind: Kustomization
                resources:
                  - \(root)/base
                components:
                \(components.map { "  - \(root)/\($0)" }.joined(separator: "\n"))

                """
            try Data(kustomization.utf8).write(to: scratch.appendingPathComponent("kustomization.yaml"))
            directory = scratch.path
        }
        var arguments = [
            KubernetesFixture.fixtures.appendingPathComponent("kube_check.py").path, directory,
            "--kubernetes-version", KubernetesFixture.kubernetesVersion,
        ]
        if comparingWithKubectl, let kubectl = KubernetesFixture.kubectl { arguments += ["--kubectl", kubectl] }
        let output = try KubernetesFixture.run(python, arguments)
        try #require(output.status == 0, "kube_check.py failed: \(output.stderr)")
        Self.renders.withLock { $0[cacheKey] = output.stdout }
        return try Self.parse(output.stdout)
    }

    /// kube_check.py's output by set (and kubectl comparison): each set is rendered once per test run.
    private static let renders = Mutex<[String: String]>([:])

    private static func parse(_ stdout: String) throws -> Rendered {
        let json = try JSONSerialization.jsonObject(with: Data(stdout.utf8))
        let top = try #require(json as? [String: Any], "kube_check.py printed no object")
        return Rendered(
            resources: try #require(top["resources"] as? [[String: Any]]),
            errors: try #require(top["errors"] as? [String]),
            kubectl: try #require(top["kubectl"] as? String))
    }
}

/// What a kustomization produced.
struct Rendered {
    var resources: [[String: Any]]
    /// Schema violations, and anything the renderer could not do.
    var errors: [String]
    /// "same" when kubectl's kustomize produced the same resources, "not compared" without kubectl.
    var kubectl: String

    var kinds: [String] { resources.compactMap { $0["kind"] as? String }.sorted() }

    func all(_ kind: String) -> [[String: Any]] { resources.filter { $0["kind"] as? String == kind } }

    /// The one resource of a kind.
    func one(_ kind: String) throws -> [String: Any] {
        let found = all(kind)
        try #require(found.count == 1, "\(found.count) resources of kind \(kind), expected one")
        return found[0]
    }

    /// The Deployment's one container.
    func workerContainer() throws -> [String: Any] {
        let containers = try #require(at(try one("Deployment"), "spec", "template", "spec", "containers") as? [[String: Any]])
        try #require(containers.count == 1, "the worker's pod has \(containers.count) containers")
        return containers[0]
    }

    /// The settings ConfigMap's settings.json, parsed.
    func settingsFile() throws -> (text: String, json: [String: Any]) {
        let text = try #require(at(try one("ConfigMap"), "data", "settings.json") as? String)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        return (text, json)
    }

    /// The ConfigMap's statement of the request topic's partition count.
    func requestTopicPartitions() throws -> Int {
        let text = try #require(
            at(try one("ConfigMap"), "metadata", "annotations", "feature-query-worker/request-topic-partitions") as? String)
        return try #require(Int(text), "request-topic-partitions \(text) is not a number")
    }
}

/// The value at a path of keys (String) and indexes (Int) in parsed JSON.
func at(_ root: Any?, _ path: Any...) -> Any? {
    var current = root
    for step in path {
        if let key = step as? String {
            current = (current as? [String: Any])?[key]
        } else if let index = step as? Int, let list = current as? [Any], list.indices.contains(index) {
            current = list[index]
        } else {
            return nil
        }
    }
    return current
}

/// Whether `selector` (matchLabels-style) selects objects with `labels`.
func selects(_ selector: Any?, _ labels: Any?) -> Bool {
    guard let selector = selector as? [String: String], !selector.isEmpty, let labels = labels as? [String: String] else { return false }
    return selector.allSatisfy { labels[$0.key] == $0.value }
}
