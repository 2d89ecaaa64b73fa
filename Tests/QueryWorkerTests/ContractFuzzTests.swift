import FeatureGeometry
import FeatureQuerySupport
import Foundation
import Testing

@testable import QueryWorker

/// Random mutations of valid messages: the decoder never crashes, always answers query, cancel or a
/// well-formed rejection, and never accepts what the schema refuses.
@Suite struct ContractFuzzTests {
    static func seeds() throws -> [[UInt8]] {
        try (ContractSupport.examples(prefix: "request") + ContractSupport.examples(prefix: "cancel")).map(\.bytes)
    }

    static let tokens: [[UInt8]] = [
        "{", "}", "[", "]", "\"", ",", ":", "null", "true", "false", "-", "0", "1e999", "-0", "0.5", "\\", "\\u0000",
        "\\ud800", "\"cancel\":true,", "\"where\":\"1=1\",", "\"extent\":{},", "\"type\":\"ogc\",", "\"layers\":[0],",
        "é", "😀", "  ",
    ].map { Array($0.utf8) } + [[0xFF], [0xC0, 0x80], [0xED, 0xA0, 0x80], [0x00], [0x1F]]

    static func mutateBytes(_ input: [UInt8], _ random: inout SeededGenerator) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0...6, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] ^= UInt8(1) << UInt8.random(in: 0...7, using: &random)
            case 1 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 2: bytes.insert(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &random)], at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...20, using: &random))
                bytes.removeSubrange(position..<end)
            case 4: bytes = Array(bytes.prefix(position))
            case 5 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...40, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default: bytes.append(contentsOf: tokens[Int.random(in: 0..<tokens.count, using: &random)])
            }
        }
        return bytes
    }

    static let names = [
        "requestId", "taskId", "deadline", "timeoutMs", "targets", "query", "credential", "cancel", "type", "url", "layers",
        "collection", "where", "namedWhere", "extent", "geometry", "spatialRelationship", "outFields", "returnGeometry",
        "outSpatialReference", "maxFeatures", "result", "xmin", "ymin", "xmax", "ymax", "spatialReference", "wkid", "x", "y",
        "rings", "coordinates", "bogus",
    ]

    static func randomValue(_ random: inout SeededGenerator, depth: Int = 0) -> ParsedJSON {
        switch Int.random(in: 0...(depth > 2 ? 9 : 12), using: &random) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &random))
        case 2: return .number([0, -0.0, 1, -1, 0.5, 4326, 3857, 1e300, -180.5, 91, 2_147_483_648, 9_007_199_254_740_992][
            Int.random(in: 0...11, using: &random)])
        case 3: return .number(Double(Int.random(in: -1_000...100_000, using: &random)))
        case 4: return .string("")
        case 5: return .string(String(repeating: "a", count: Int.random(in: 1...200, using: &random)))
        case 6: return .string(["ids", "count", "features", "arcgis", "ogc", "intersects", "government", "UseType = 'x'",
                                 "2025-06-01T12:00:00Z", "2025-13-01T00:00:00Z", "https://h.example/a/MapServer",
                                 "https://h.example/a/FeatureServer/0", "ftp://x", "a\u{0}b", "é😀", "Point", "Polygon"][
            Int.random(in: 0...16, using: &random)])
        case 7, 8, 9: return .string("r-\(Int.random(in: 0...9, using: &random))")
        case 10: return .array((0..<Int.random(in: 0...3, using: &random)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [String: ParsedJSON] = [:]
            for _ in 0..<Int.random(in: 0...3, using: &random) {
                members[names[Int.random(in: 0..<names.count, using: &random)]] = randomValue(&random, depth: depth + 1)
            }
            return .object(members)
        }
    }

    /// Changes one randomly chosen place of the document: replaces, removes or adds a value.
    static func mutateValue(_ value: ParsedJSON, _ random: inout SeededGenerator, depth: Int = 0) -> ParsedJSON {
        let descend = depth < 6 && Int.random(in: 0...3, using: &random) > 0
        switch value {
        case .object(var members) where !members.isEmpty && descend:
            let keys = members.keys.sorted()
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            members[key] = members[key].map { mutateValue($0, &random, depth: depth + 1) }
            return .object(members)
        case .array(var items) where !items.isEmpty && descend:
            let index = Int.random(in: 0..<items.count, using: &random)
            items[index] = mutateValue(items[index], &random, depth: depth + 1)
            return .array(items)
        case .object(var members):
            switch Int.random(in: 0...2, using: &random) {
            case 0 where !members.isEmpty:
                let keys = members.keys.sorted()
                members[keys[Int.random(in: 0..<keys.count, using: &random)]] = nil
            default:
                members[names[Int.random(in: 0..<names.count, using: &random)]] = randomValue(&random)
            }
            return .object(members)
        case .array(var items):
            switch Int.random(in: 0...2, using: &random) {
            case 0 where !items.isEmpty: items.remove(at: Int.random(in: 0..<items.count, using: &random))
            case 1 where !items.isEmpty: items.append(items[Int.random(in: 0..<items.count, using: &random)])
            default: items.append(randomValue(&random))
            }
            return .array(items)
        default:
            return randomValue(&random)
        }
    }

    /// The answer is one of the three, and a rejection is well formed.
    static func check(_ message: IncomingMessage, input: [UInt8]) {
        switch message {
        case .query(let request):
            #expect((1...128).contains(request.requestId.unicodeScalars.count))
            #expect((1...128).contains(request.taskId.unicodeScalars.count))
            #expect((1...16).contains(request.targets.count))
        case .cancel(let taskId):
            #expect((1...128).contains(taskId.unicodeScalars.count))
        case .rejected(let rejection):
            #expect(RejectionCase.rejectionCodes.contains(rejection.code), "\(rejection)")
            #expect(!rejection.message.isEmpty)
            if let path = rejection.path {
                #expect(rejection.message.hasPrefix(path + ": "), "\(rejection) for \(String(decoding: input, as: UTF8.self))")
            }
        }
    }

    @Test func byteMutationsNeverCrashTheDecoder() throws {
        let decoder = try ContractSupport.decoder()
        let seeds = try Self.seeds()
        var random = SeededGenerator(seed: 0xC0FFEE)
        var counts = [0, 0, 0]
        for _ in 0..<20_000 {
            let input = Self.mutateBytes(seeds[Int.random(in: 0..<seeds.count, using: &random)], &random)
            let message = decoder.decode(input, key: nil, receivedAt: 1_000)
            Self.check(message, input: input)
            switch message {
            case .query: counts[0] += 1
            case .cancel: counts[1] += 1
            case .rejected: counts[2] += 1
            }
        }
        #expect(counts[2] > 10_000, "\(counts)")
        #expect(counts[0] > 100, "some mutations keep the request valid: \(counts)")
    }

    @Test func valueMutationsNeverCrashTheDecoder() throws {
        let decoder = try ContractSupport.decoder()
        let seeds = try Self.seeds().map { try ParsedJSON(parsing: $0) }
        var random = SeededGenerator(seed: 7)
        for _ in 0..<20_000 {
            let input = ContractSupport.json(Self.mutateValue(seeds[Int.random(in: 0..<seeds.count, using: &random)], &random))
            Self.check(decoder.decode(input, key: nil, receivedAt: 1_000), input: input)
        }
    }

    /// Codes for checks the schema cannot make; only these may refuse a schema-valid message.
    static let workerOnlyCodes: Set<ContractError.Code> = [
        .invalidWhere, .unknownNamedQuery, .freeClausesDisabled, .unknownCredential, .credentialScopeMismatch, .invalidGeometry,
        .keyMismatch, .tooLarge, .invalidValue, .unsupportedSpatialReference, .tooManyLayers,
    ]

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func theDecoderAcceptsNothingTheSchemaRefuses() throws {
        let decoder = try ContractSupport.decoder()
        let seeds = try Self.seeds().map { try ParsedJSON(parsing: $0) }
        var random = SeededGenerator(seed: 2025)
        var documents: [(schema: String, bytes: [UInt8])] = []
        var answers: [IncomingMessage] = []
        for index in 0..<1_000 {
            var value = seeds[index % seeds.count]
            for _ in 0..<Int.random(in: 1...2, using: &random) { value = Self.mutateValue(value, &random) }
            let bytes = ContractSupport.json(value)
            documents.append((value["cancel"] == nil ? "request" : "cancel", bytes))
            answers.append(decoder.decode(bytes, key: nil, receivedAt: 1_000))
        }
        let verdicts = try ContractSupport.validate(documents)
        var accepted = 0
        for (index, verdict) in verdicts.enumerated() {
            let text = String(decoding: documents[index].bytes, as: UTF8.self)
            switch answers[index] {
            case .query, .cancel:
                accepted += 1
                #expect(verdict.valid, "accepted but schema-invalid: \(text)\n\(verdict.errors)")
            case .rejected(let rejection):
                if verdict.valid {
                    #expect(Self.workerOnlyCodes.contains(rejection.code), "schema-valid but \(rejection): \(text)")
                }
            }
        }
        #expect(accepted > 50, "enough mutations stay valid to test agreement")
    }
}
