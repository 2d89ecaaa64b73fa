import Foundation
import QueryLanguage
import QueryWorker
import RequestFuzzing
import RequestContract

/// The tool's command line: a mode, then `--name value` pairs.
struct FuzzOptions {
    var mode = "decode"
    var values: [String: String] = [:]

    init(_ arguments: ArraySlice<String>) {
        var rest = arguments
        if let first = rest.first, !first.hasPrefix("--") {
            mode = first
            rest = rest.dropFirst()
        }
        while let name = rest.first {
            rest = rest.dropFirst()
            values[String(name.drop { $0 == "-" })] = rest.first ?? ""
            rest = rest.dropFirst()
        }
    }

    func integer(_ name: String, default fallback: Int) throws -> Int {
        guard let text = values[name] else { return fallback }
        guard let value = Int(text.replacingOccurrences(of: "_", with: "")) else {
            throw FuzzToolError("--\(name) \(text) is not a whole number")
        }
        return value
    }

    var seed: UInt64 { get throws { UInt64(try integer("seed", default: 16_005)) } }

    /// The generator every mode uses: the contract's examples, this seed, and the live run's ids and size.
    func generator() throws -> HostileRequestGenerator {
        let examples = values["examples"].map { URL(fileURLWithPath: $0) } ?? ContractSeeds.examplesDirectory
        var seeds = try ContractSeeds.load(from: examples)
        if let base = values["url-base"] {
            // The live run: the examples' services become the sample server's, so accepted requests run.
            seeds = seeds.map { seed in
                Array(String(decoding: seed, as: UTF8.self)
                    .replacingOccurrences(of: "https://services3.arcgis.com/GVgbJbqm8hXASVYi/arcgis/rest/services", with: base)
                    .replacingOccurrences(of: "https://sampleserver6.arcgisonline.com/arcgis/rest/services", with: base).utf8)
            }
        }
        return try HostileRequestGenerator(
            seeds: seeds, seed: try seed, uniqueIdPrefix: values["id-prefix"],
            maxValueBytes: try integer("max-bytes", default: 2_100_000))
    }

    /// The decoder a worker without a credentials file runs with its default limits and the built-in named
    /// queries.
    func decoder() throws -> RequestDecoder {
        RequestDecoder(namedQueries: try NamedQueryCatalog(), credentials: .noCredentialsFile)
    }
}

/// A usage or input error of the tool.
struct FuzzToolError: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}

/// The process's peak resident set, in MiB: VmHWM from /proc/self/status (getrusage's ru_maxrss would carry
/// a large parent's peak across exec), 0 when unreadable.
func maxResidentMiB() -> Double {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return 0 }
    for line in status.split(separator: "\n") where line.hasPrefix("VmHWM:") {
        let kilobytes = line.split(separator: " ").dropFirst().first.flatMap { Double($0) } ?? 0
        return kilobytes / 1_024
    }
    return 0
}

/// Prints one message of a run: its kind, key and value (text when UTF-8, else base64), and the answer.
func showOne(_ options: FuzzOptions) throws {
    let target = try options.integer("index", default: 0)
    var generator = try options.generator()
    var message = generator.next()
    while generator.index <= target { message = generator.next() }
    let answer = try options.decoder().decode(message.value, key: message.key, receivedAt: 1_000)
    print("index \(target), kind \(message.kind.rawValue), \(message.value?.count ?? 0) bytes")
    print("key: \(message.key.map(describe) ?? "none")")
    print("value: \(message.value.map(describe) ?? "none (tombstone)")")
    print("answer: \(answer)")
}

func describe(_ bytes: [UInt8]) -> String {
    if let text = String(validating: bytes, as: UTF8.self) { return text.count > 4_000 ? String(text.prefix(4_000)) + "…" : text }
    return "base64 " + Data(bytes.prefix(3_000)).base64EncodedString()
}
