import Foundation
import Testing

/// `scripts/test` runs the suites in several `swift test` processes (broker faults, bridges, the worker, outages,
/// network fronts, network authentication, everything else), chosen by test target: a suite added to a target
/// runs where its target runs. What this keeps true: every test target of Package.swift runs in exactly one of
/// them (none twice, none in no process), every name the script gives is a test target, and no process is
/// chosen by anything but targets (a list of suite names is where a new suite silently lands in the wrong
/// process).
@Suite("scripts/test: every test target in exactly one process")
struct ScriptsTestProcessesTests {
    /// Repository root: three levels up from Tests/DeploymentTests/ScriptsTestProcessesTests.swift.
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    @Test func everyTestTargetRunsInExactlyOneProcess() throws {
        let manifest = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("Package.swift"), encoding: .utf8)
        let script = try String(contentsOf: Self.repositoryRoot.appendingPathComponent("scripts/test"), encoding: .utf8)
        let plan = TestProcessPlan(manifest: manifest, script: script)
        // Parsing found what there is: a dozen and more targets, seven processes.
        #expect(plan.testTargets.count > 12, "\(plan.testTargets)")
        #expect(plan.processCount == 7, "\(plan.processCount) processes")
        #expect(plan.problems.isEmpty, "\(plan.problems)")
    }

    /// The check itself: a target in two processes, a name that is no target, and a target no process runs
    /// (the script without its last, everything-else process) are each found.
    @Test func aTargetTwiceAMissingTargetAndAStaleNameAreFound() {
        let manifest = """
            .testTarget(name: "ATests", dependencies: []),
            .testTarget(
                name: "BTests",
                dependencies: []
            ),
            .target(name: "Support"),
            """
        let twice = TestProcessPlan(manifest: manifest, script: """
            run_targets ATests
            # run_targets BTests (a comment runs nothing)
            run_targets ATests CTests
            timeout 15m swift test --skip-build --skip "^($skipped)\\." || status=1
            """)
        #expect(twice.testTargets == ["ATests", "BTests"])
        #expect(twice.problems == ["CTests is not a test target of Package.swift", "ATests runs in 2 processes"])
        let withoutTheRest = TestProcessPlan(manifest: manifest, script: "run_targets ATests\n")
        #expect(withoutTheRest.problems == ["BTests runs in 0 processes"])
    }

    /// The process run beside the others counts as one of the plan's, and its targets as run.
    @Test func aProcessRunBesideTheOthersIsAProcessOfThePlan() {
        let manifest = #".testTarget(name: "ATests"), .testTarget(name: "BTests"), .testTarget(name: "CTests")"#
        let plan = TestProcessPlan(manifest: manifest, script: """
            run_targets_beside ATests
            run_targets BTests
            wait_beside
            timeout 15m swift test --skip-build --skip "^($skipped)\\." || status=1
            """)
        #expect(plan.processCount == 3)
        #expect(plan.problems.isEmpty, "\(plan.problems)")
        let twice = TestProcessPlan(manifest: manifest, script: "run_targets_beside ATests\nrun_targets ATests BTests CTests\n")
        #expect(twice.problems == ["ATests runs in 2 processes"])
    }

    /// A process chosen by suite names, as the script's were before its targets: refused, whatever it runs.
    @Test func aProcessChosenBySuiteNamesIsFound() {
        let plan = TestProcessPlan(manifest: #".testTarget(name: "ATests")"#, script: """
            timeout 15m swift test --skip-build --filter 'KafkaFaultTests|WorkerShutdownTests' || status=1
            timeout 15m swift test --skip-build --skip "^($skipped)\\." || status=1
            """)
        #expect(plan.problems == [
            "a `swift test` process not chosen by run_targets: timeout 15m swift test --skip-build --filter 'KafkaFaultTests|WorkerShutdownTests' || status=1",
        ])
    }
}

/// The test processes of `scripts/test`, read from its text: a `run_targets A B` line (or `run_targets_beside A B`,
/// the process run in the background beside the next ones, or `run_targets_last A B`, the one run last and
/// alone) is a process running targets A and B; the line
/// whose `--skip` is built from `$skipped` (the targets the `run_targets` lines named) is the last process,
/// running every other target, whether it calls `swift test` itself or through the script's `run_process`. The
/// function's own `swift test` line and the pass-through of arguments (`swift test "$@"`) are not processes of
/// the plan.
struct TestProcessPlan {
    /// The test targets of Package.swift, in its order.
    let testTargets: [String]
    /// How many processes the script starts without arguments.
    let processCount: Int
    /// What breaks "every test target in exactly one process, chosen by target", one line each.
    let problems: [String]

    init(manifest: String, script: String) {
        testTargets = PackageManifestReader(manifest).targets.filter { $0.kind == "testTarget" }.map(\.name)
        var named: [String] = []
        var namedProcesses = 0
        var hasTheRest = false
        var problems: [String] = []
        for line in script.split(separator: "\n").map({ $0.trimmingCharacters(in: .whitespaces) }) {
            if line.hasPrefix("#") { continue }
            if line.hasPrefix("run_targets ") || line.hasPrefix("run_targets_beside ") || line.hasPrefix("run_targets_last ") {
                namedProcesses += 1
                named += line.split(separator: " ").dropFirst().map(String.init)
            } else if line.contains(#"--skip "^($skipped)\."#) {
                hasTheRest = true
            } else if line.contains("swift test") {
                if !line.contains(#"--filter "^($*)\."#) && !line.contains(#""$@""#) {
                    problems.append("a `swift test` process not chosen by run_targets: \(line)")
                }
            }
        }
        for name in named where !testTargets.contains(name) {
            problems.append("\(name) is not a test target of Package.swift")
        }
        for target in testTargets {
            let times = named.filter { $0 == target }.count
            let runs = times == 0 && hasTheRest ? 1 : times
            if runs != 1 { problems.append("\(target) runs in \(runs) processes") }
        }
        processCount = namedProcesses + (hasTheRest ? 1 : 0)
        self.problems = problems
    }
}
