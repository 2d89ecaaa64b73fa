import FeatureQuerySupport
import Foundation

extension QueryJob {
    /// The contract's JSON object for this job. Built as the worker reads it (members absent when `nil`), so
    /// that the worker's decoder, not a second set of rules here, judges it (``FeatureQueryClient/validate(_:)``).
    func contractJSON() throws(FeatureQueryError) -> ParsedJSON {
        var object: [String: ParsedJSON] = [
            "requestId": .string(requestId),
            "targets": .array(targets.map(\.contractJSON)), "query": try query.contractJSON(),
        ]
        if let deadline {
            object["deadline"] = .string(RFC3339.string(fromMilliseconds: Int64((deadline.timeIntervalSince1970 * 1000).rounded())))
        }
        // Sub-millisecond parts would make a fraction, which the contract refuses; round up so a tiny timeout stays ≥ 1.
        if let timeout { object["timeoutMs"] = .number(Double(timeout.clampedMillisecondsRoundedUp)) }
        if let taskId { object["taskId"] = .string(taskId) }
        if progress { object["progress"] = .bool(true) }
        if let credential { object["credential"] = .string(credential) }
        // Only what differs from the contract's defaults, so a job that sets nothing is a 1.2 message.
        if delivery != .auto { object["delivery"] = .string(delivery.rawValue) }
        if format != .geojson { object["format"] = .string(format.rawValue) }
        if compression != .none { object["compression"] = .string(compression.rawValue) }
        return .object(object)
    }

    /// The message value as published.
    package func messageValue() throws(FeatureQueryError) -> [UInt8] {
        var writer = JSONWriter(capacity: 512)
        writer.value(try contractJSON())
        return writer.bytes
    }
}

extension QueryJob.Target {
    var contractJSON: ParsedJSON {
        switch self {
        case .arcgis(let url, let layers):
            var object: [String: ParsedJSON] = ["type": .string("arcgis"), "url": .string(url)]
            if let layers { object["layers"] = .array(layers.map { .number(Double($0)) }) }
            return .object(object)
        case .ogc(let landingPage, let collection):
            var object: [String: ParsedJSON] = ["type": .string("ogc"), "url": .string(landingPage)]
            if let collection { object["collection"] = .string(collection) }
            return .object(object)
        }
    }
}

extension Duration {
    /// Whole milliseconds, a remainder counted as one more.
    fileprivate var clampedMillisecondsRoundedUp: Int64 {
        let whole = clampedMilliseconds
        return self > .milliseconds(whole) ? whole + 1 : whole
    }
}
