import BenchmarkSupport
import Foundation

/// One measured run in a child process of its own: this executable's worker subcommands or a Python peer.
/// The child prints `RESULT key=value ...`; its standard error passes through.
struct ChildRun {
    /// The program and its arguments.
    var command: [String]
    /// `taskset -c` CPU list to run the child on, if any.
    var cpus: String?

    /// Runs the child to completion and returns its RESULT fields; a non-zero exit is an error.
    func run() async throws -> ResultFields {
        var arguments = command
        if let cpus { arguments = ["/usr/bin/taskset", "-c", cpus] + arguments }
        guard let executable = arguments.first else { throw BenchmarkError("no command to run") }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = Array(arguments.dropFirst())
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        // Read the pipe on a thread of its own while the child runs, so a full pipe can't stall it.
        let reader = Task.detached { stdout.fileHandleForReading.readDataToEndOfFile() }
        let status = try await PeerProcess.run(process)
        let text = String(decoding: await reader.value, as: UTF8.self)
        let name = URL(fileURLWithPath: command.first ?? "?").lastPathComponent
        guard status == 0 else {
            throw BenchmarkError("\(arguments.joined(separator: " ")) exited with status \(status): \(text)")
        }
        return ResultFields(try PeerProcess.resultFields(text, program: name), program: name)
    }

    /// This executable, for its worker subcommands.
    static func selfExecutable() throws -> String {
        do {
            return try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")
        } catch {
            guard let path = Bundle.main.executablePath else { throw BenchmarkError("cannot find this executable's path") }
            return path
        }
    }
}

/// The `key=value` fields of a child's RESULT line, read with checks.
struct ResultFields {
    let fields: [String: String]
    let program: String

    init(_ fields: [String: String], program: String) {
        self.fields = fields
        self.program = program
    }

    func double(_ key: String) throws -> Double {
        guard let text = fields[key], let value = Double(text) else {
            throw BenchmarkError("\(program) printed no number \(key)= in its RESULT line: \(fields)")
        }
        return value
    }

    func int(_ key: String) throws -> Int {
        guard let text = fields[key], let value = Int(text) else {
            throw BenchmarkError("\(program) printed no integer \(key)= in its RESULT line: \(fields)")
        }
        return value
    }

    func string(_ key: String) throws -> String {
        guard let value = fields[key] else { throw BenchmarkError("\(program) printed no \(key)= in its RESULT line: \(fields)") }
        return value
    }

    func optionalDouble(_ key: String) -> Double? { fields[key].flatMap(Double.init) }
}

/// Writes a `RESULT key=value ...` line for the driver (values must not contain spaces).
func printResult(_ fields: KeyValuePairs<String, String>) {
    output("RESULT " + fields.map { "\($0.key)=\($0.value)" }.joined(separator: " "))
}
