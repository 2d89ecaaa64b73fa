import FeatureQuerySupport
import Foundation
import QueryLanguage
import RequestContract

/// Request messages read per second on one core: the worker's whole decoding (``RequestDecoder``: JSON, every
/// contract check, the where clause), its JSON step alone (``ParsedJSON``), and Foundation's
/// `JSONSerialization` parsing the same bytes (the peer: JSON only, no checks), in one run.
///
/// The messages are the CPU benchmark's `count` and `features` requests (`Benchmarks/profile/drive_worker.py`):
/// every request the worker reads pays this once, before any HTTP.
enum RequestDecodingBenchmark {
    static let layerURL = "http://127.0.0.1:8080/arcgis/rest/services/LA_County_Parcels/FeatureServer/0"

    /// Eight messages of each kind, their ids and envelopes differing as a client's would.
    static func messages() -> [[UInt8]] {
        var random = SplitMix64(seed: 42)
        return (0..<16).map { index in
            let x = -13_225_000 + Int(random.unit() * 6000)
            let y = 4_032_000 + Int(random.unit() * 6000)
            let features = index % 2 == 1 ? #","maxFeatures":100,"returnGeometry":true"# : ""
            let result = index % 2 == 1 ? "features" : "count"
            let text = #"{"requestId":"pw-\#(index)","taskId":"pw-\#(index)","targets":[{"type":"arcgis","url":"\#(layerURL)"}],"#
                + #""query":{"where":"UseType = 'Residential'","extent":{"xmin":\#(x),"ymin":\#(y),"xmax":\#(x + 200),"#
                + #""ymax":\#(y + 200),"spatialReference":{"wkid":3857}},"result":"\#(result)"\#(features)}}"#
            return Array(text.utf8)
        }
    }

    static func run(seconds: Double) {
        let messages = messages()
        let decoder: RequestDecoder
        do {
            decoder = RequestDecoder(namedQueries: try NamedQueryCatalog(includeBuiltIns: false))
        } catch {
            print("  cannot make the decoder: \(error)")
            return
        }
        guard case .query = decoder.decode(messages[0], key: nil, receivedAt: 0) else {
            print("  the benchmark's message is not a valid request: \(decoder.decode(messages[0], key: nil, receivedAt: 0))")
            return
        }
        let bytes = messages.reduce(0) { $0 + $1.count } / messages.count
        print("Request messages (\(messages.count), \(bytes) bytes on average: the CPU benchmark's count and features requests):")
        let datas = messages.map { Data($0) }
        let decoding = QueryLanguageBenchmark.throughput(seconds: seconds, items: messages) { message in
            if case .query(let request) = decoder.decode(message, key: nil, receivedAt: 0) { return request.targets.count }
            return 0
        }
        let parsing = QueryLanguageBenchmark.throughput(seconds: seconds, items: messages) { message in
            if case .object(let members)? = try? ParsedJSON(reading: message) { return members.count }
            return 0
        }
        let peer = QueryLanguageBenchmark.throughput(seconds: seconds, items: datas) { data in
            ((try? JSONSerialization.jsonObject(with: data)) as? [String: Any])?.count ?? 0
        }
        QueryLanguageBenchmark.report("RequestDecoder.decode (JSON, checks, clause)", decoding, unit: "messages")
        QueryLanguageBenchmark.report("ParsedJSON alone (JSON)", parsing, unit: "messages")
        QueryLanguageBenchmark.report("JSONSerialization (peer: JSON only)", peer, unit: "messages")
        print("  JSON alone: \(QueryLanguageBenchmark.format(peer / parsing, 2))x JSONSerialization's time; "
            + "whole decoding: \(QueryLanguageBenchmark.format(peer / decoding, 2))x")
    }
}
