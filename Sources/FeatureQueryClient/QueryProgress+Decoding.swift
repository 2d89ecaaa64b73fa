import Foundation

extension QueryProgress {
    /// The contract's progress event, as far as the client reads it; members a newer worker adds are ignored.
    private struct Event: Decodable {
        struct Layer: Decodable {
            var url: String
            var pages: Int?
            var features: Int?
            var expected: Int?
            var done: Bool?
        }

        var kind: String?
        var requestId: String
        var elapsedMs: Int64?
        var layers: [Layer]?
    }

    /// An event's value; `nil` for what is not a progress event (the topic is shared: one bad producer must not
    /// stop a reader).
    init?(message value: [UInt8]) {
        guard let event = try? JSONDecoder().decode(Event.self, from: Data(value)), event.kind == nil || event.kind == "progress" else {
            return nil
        }
        self.init(
            requestId: event.requestId, elapsed: .milliseconds(max(0, event.elapsedMs ?? 0)),
            layers: (event.layers ?? []).map {
                Layer(url: $0.url, pages: max(0, $0.pages ?? 0), features: max(0, $0.features ?? 0), expected: $0.expected, done: $0.done ?? false)
            })
    }
}
