import FeatureQuerySupport
import Foundation
import QueryWorker
import RequestFuzzing
import RequestContract

/// `decode`: N messages through the decoder, the figures, and every ill-formed answer.
struct DecodeRun {
    let count: Int
    let generator: HostileRequestGenerator
    let decoder: RequestDecoder
    let schemaSample: FileHandle?
    let sampleEvery: Int

    init(_ options: FuzzOptions) throws {
        count = try options.integer("count", default: 1_000_000)
        generator = try options.generator()
        decoder = try options.decoder()
        sampleEvery = max(1, try options.integer("sample-every", default: 50))
        if let path = options.values["schema-sample"] {
            guard FileManager.default.createFile(atPath: path, contents: nil) else { throw FuzzToolError("cannot create \(path)") }
            schemaSample = FileHandle(forWritingAtPath: path)
        } else {
            schemaSample = nil
        }
    }

    func run() throws {
        var generator = generator
        var byLabel: [String: Int] = [:]
        var byKind: [HostileMessage.Kind: [String: Int]] = [:]
        var problems = 0
        var sampled = 0
        var sample = [UInt8]()
        let clock = ContinuousClock()
        var decodeTime = Duration.zero
        let start = clock.now
        for index in 0..<count {
            let message = generator.next()
            let began = clock.now
            let answer = decoder.decode(message.value, key: message.key, receivedAt: 1_000)
            decodeTime += clock.now - began
            let label = RequestFuzzOracle.label(answer)
            byLabel[label, default: 0] += 1
            byKind[message.kind, default: [:]][label, default: 0] += 1
            let found = RequestFuzzOracle.problems(answer)
            if !found.isEmpty {
                problems += 1
                if problems <= 20 { print("PROBLEM at index \(index) (\(message.kind.rawValue)): \(found.joined(separator: "; "))") }
            }
            if schemaSample != nil, let value = message.value, value.count <= 200_000,
                label == "query" || label == "cancel" || index % sampleEvery == 0 {
                sample += SampleLine(index: index, label: label, value: value, key: message.key).bytes
                sampled += 1
                if sample.count > 1 << 20 {
                    schemaSample?.write(Data(sample))
                    sample.removeAll(keepingCapacity: true)
                }
            }
        }
        schemaSample?.write(Data(sample))
        try schemaSample?.close()
        let elapsed = clock.now - start
        report(byLabel: byLabel, byKind: byKind, problems: problems, sampled: sampled, elapsed: elapsed, decodeTime: decodeTime)
        if problems > 0 { exit(1) }
    }

    private func report(
        byLabel: [String: Int], byKind: [HostileMessage.Kind: [String: Int]], problems: Int, sampled: Int,
        elapsed: Duration, decodeTime: Duration
    ) {
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18
        let decodeSeconds = Double(decodeTime.components.seconds) + Double(decodeTime.components.attoseconds) * 1e-18
        print("messages: \(count) in \(String(format: "%.1f", seconds)) s, "
            + "\(Int(Double(count) / seconds)) messages/s generated and decoded, "
            + "\(Int(Double(count) / decodeSeconds)) messages/s decoding alone")
        let rejected = byLabel.filter { $0.key != "query" && $0.key != "cancel" }.values.reduce(0, +)
        print("outcomes: query \(byLabel["query"] ?? 0), cancel \(byLabel["cancel"] ?? 0), rejected \(rejected)")
        print("rejections by code:")
        for (label, number) in byLabel.sorted(by: { $0.value > $1.value }) where label != "query" && label != "cancel" {
            print("  \(label): \(number)")
        }
        print("by kind (messages: outcomes):")
        for kind in HostileMessage.Kind.allCases {
            let labels = byKind[kind] ?? [:]
            let total = labels.values.reduce(0, +)
            let top = labels.sorted { $0.value > $1.value }.prefix(6).map { "\($0.key) \($0.value)" }.joined(separator: ", ")
            print("  \(kind.rawValue) \(total): \(top)")
        }
        if schemaSample != nil { print("schema sample: \(sampled) messages (every accepted one, every \(sampleEvery)th other)") }
        print("ill-formed answers: \(problems)")
        print("crashes: 0 (the process finished)")
        print(String(format: "max RSS: %.1f MiB", maxResidentMiB()))
    }
}

/// One line of the schema sample or of the live run's messages: JSON with the value and key in base64.
struct SampleLine {
    var index: Int
    var label: String
    var value: [UInt8]?
    var key: [UInt8]?
    var kind: String?
    var id: String?
    /// The requestId of an accepted query, as the decoder read it: results carry no offset, only this.
    var requestId: String?

    var bytes: [UInt8] {
        var line = "{\"i\":\(index),\"answer\":\"\(label)\""
        line += ",\"value\":" + (value.map { "\"\(Data($0).base64EncodedString())\"" } ?? "null")
        line += ",\"key\":" + (key.map { "\"\(Data($0).base64EncodedString())\"" } ?? "null")
        if let kind { line += ",\"kind\":\"\(kind)\"" }
        if let id { line += ",\"id\":" + ParsedJSON.string(id).jsonText }
        if let requestId { line += ",\"requestId\":" + ParsedJSON.string(requestId).jsonText }
        return Array((line + "}\n").utf8)
    }
}
