import Foundation
import QueryWorker
import RequestFuzzing
import RequestContract

/// `generate`: the live run's messages as JSON lines, each with the answer this decoder gives it, which the
/// live worker's outcome must match.
struct GenerateRun {
    let count: Int
    let generator: HostileRequestGenerator
    let decoder: RequestDecoder
    let path: String

    init(_ options: FuzzOptions) throws {
        count = try options.integer("count", default: 20_000)
        generator = try options.generator()
        decoder = try options.decoder()
        guard let path = options.values["out"] else { throw FuzzToolError("generate needs --out FILE") }
        self.path = path
    }

    func run() throws {
        guard FileManager.default.createFile(atPath: path, contents: nil), let file = FileHandle(forWritingAtPath: path) else {
            throw FuzzToolError("cannot create \(path)")
        }
        var generator = generator
        var buffer = [UInt8]()
        for index in 0..<count {
            let message = generator.next()
            let answer = decoder.decode(message.value, key: message.key, receivedAt: 1_000)
            buffer += SampleLine(
                index: index, label: RequestFuzzOracle.label(answer), value: message.value, key: message.key,
                kind: message.kind.rawValue, id: message.intendedRequestId, requestId: Self.requestId(answer)
            ).bytes
            if buffer.count > 1 << 20 {
                file.write(Data(buffer))
                buffer.removeAll(keepingCapacity: true)
            }
        }
        file.write(Data(buffer))
        try file.close()
        print("wrote \(count) messages to \(path)")
    }

    static func requestId(_ answer: IncomingMessage) -> String? {
        if case .query(let request) = answer { return request.requestId }
        return nil
    }
}
