import FeatureQueryClient
import Foundation

/// The command line, parsed by hand: a dozen flags do not repay swift-argument-parser's build time in every CI
/// run (Examples/README.md has the measurement).
struct Options {
    /// What the run demonstrates.
    enum Mode {
        /// `--jobs N` jobs at once, each its own task.
        case jobs(Int)
        /// Two jobs for one task: the older one returns `superseded`.
        case supersede
        /// One job, then the contract's cancel for its task: it returns `cancelled`.
        case cancel
    }

    var bootstrapServers = ["localhost:9092"]
    var target = ""
    var whereClause: String?
    var result = Query.ResultKind.count
    var mode = Mode.jobs(1)
    /// The task of the first job; later ones add `-2`, `-3`, … so that `--jobs` does not supersede itself.
    var taskId = "job-submitter-\(UUID().uuidString.prefix(8).lowercased())"
    /// How long each call waits for its outcome.
    var timeout = Duration.seconds(60)

    static let usage = """
        usage: job-submitter --target LAYER_URL [--bootstrap-servers HOST:PORT[,…]] [--where CLAUSE]
                             [--result count|ids|features] [--jobs N | --supersede | --cancel]
                             [--task-id ID] [--timeout 60s|500ms|2m]

        Publishes feature-query jobs to the workers' default topics and prints one line per outcome.
        Exit status: 0 every job succeeded (or ended as the run asked: superseded, cancelled), 2 a job ended
        with an error outcome, 1 a client error (a job the worker would reject, a timeout, Kafka, a usage error).
        """

    struct UsageError: Error, CustomStringConvertible {
        var description: String
    }

    /// Parses `arguments` (without the program name); `nil` for `--help`.
    static func parse(_ arguments: [String]) throws(UsageError) -> Options? {
        var options = Options()
        var rest = arguments[...]
        while let flag = rest.popFirst() {
            if flag == "--help" || flag == "-h" { return nil }
            // The only flags without a value.
            if flag == "--supersede" || flag == "--cancel" {
                options.mode = flag == "--supersede" ? .supersede : .cancel
                continue
            }
            func value() throws(UsageError) -> String {
                guard let value = rest.popFirst() else { throw UsageError(description: "\(flag) needs a value") }
                return value
            }
            switch flag {
            case "--bootstrap-servers": options.bootstrapServers = try value().split(separator: ",").map(String.init)
            case "--target": options.target = try value()
            case "--where": options.whereClause = try value()
            case "--task-id": options.taskId = try value()
            case "--result":
                let text = try value()
                guard let kind = Query.ResultKind(rawValue: text), [.count, .ids, .features].contains(kind) else {
                    throw UsageError(description: "--result is count, ids or features, not \(text)")
                }
                options.result = kind
            case "--jobs":
                guard let count = Int(try value()), count > 0 else { throw UsageError(description: "--jobs is a positive number") }
                options.mode = .jobs(count)
            case "--timeout":
                guard let timeout = Self.duration(try value()) else { throw UsageError(description: "--timeout is like 30s, 500ms or 2m") }
                options.timeout = timeout
            default:
                throw UsageError(description: "unknown flag \(flag)")
            }
        }
        guard !options.target.isEmpty else { throw UsageError(description: "--target is required") }
        return options
    }

    /// `500ms`, `30s`, `2m`.
    private static func duration(_ text: String) -> Duration? {
        for (unit, scale) in [("ms", 1), ("s", 1_000), ("m", 60_000)] where text.hasSuffix(unit) {
            if let number = Int(text.dropLast(unit.count)), number > 0 { return .milliseconds(number * scale) }
        }
        return nil
    }
}
