package import FeatureQuerySupport
import Testing

/// A split result put back together by the contract README's algorithm: the unit tests hold the split to it,
/// the end-to-end suites read results that Kafka delivered in parts through it.
package enum ResultParts {
    /// Parts in order; an entry with a new URL starts a layer, one with a known URL appends its slices
    /// (`objectIds`, `featureIds`, `catalog`, `statistics`, `distinct`, `features.features`; `related` and
    /// `attachments` groups, a group continued from the previous part merged into its start).
    package static func reassemble(_ messages: [ParsedJSON]) throws -> ParsedJSON {
        guard case .object(var whole)? = messages.first else { throw ContractTestFailure("no parts") }
        var order: [String] = []
        var layers: [String: [String: ParsedJSON]] = [:]
        for (index, message) in messages.enumerated() {
            #expect(message["part"] == .number(Double(index + 1)))
            #expect(message["parts"] == .number(Double(messages.count)))
            guard case .array(let entries)? = message["layers"] else { throw ContractTestFailure("part \(index + 1) has no layers") }
            for entry in entries {
                guard case .object(let fields) = entry, case .string(let url)? = fields["url"] else {
                    throw ContractTestFailure("a layer entry without url")
                }
                guard var layer = layers[url] else {
                    order.append(url)
                    layers[url] = fields
                    continue
                }
                for name in ["objectIds", "featureIds", "catalog", "statistics", "distinct"] {
                    if case .array(let more)? = fields[name], case .array(let items)? = layer[name] {
                        layer[name] = .array(items + more)
                    }
                }
                for (name, member) in [("related", "records"), ("attachments", "attachments")] {
                    if case .array(var more)? = fields[name], case .array(var groups)? = layer[name] {
                        // A first group with the last group's objectId continues it (split by records).
                        if case .object(var last)? = groups.last, case .object(let first)? = more.first,
                            last["objectId"] == first["objectId"], case .array(let head)? = last[member],
                            case .array(let tail)? = first[member]
                        {
                            last[member] = .array(head + tail)
                            groups[groups.count - 1] = .object(last)
                            more.removeFirst()
                        }
                        layer[name] = .array(groups + more)
                    }
                }
                if case .array(let more)? = fields["features"]?["features"],
                    case .object(var collection)? = layer["features"], case .array(let features)? = collection["features"]
                {
                    collection["features"] = .array(features + more)
                    layer["features"] = .object(collection)
                }
                layers[url] = layer
            }
        }
        whole["layers"] = .array(order.compactMap { layers[$0].map { .object($0) } })
        whole["part"] = .number(1)
        whole["parts"] = .number(1)
        return .object(whole)
    }
}

extension WorkerHarness {
    /// Reads outcomes until every request of `ids` has all its parts (one message for an error), and returns
    /// each request's outcome whole (parts in order, reassembled) with how many parts it came in.
    package func wholeOutcomes(_ ids: Set<String>, timeout: Duration = .seconds(300)) async throws -> [String: (outcome: ParsedJSON, parts: Int)] {
        let values = try await outcomes(timeout: timeout) { values in
            var received: [String: (count: Int, parts: Int)] = [:]
            for value in values {
                guard let id = value.text("requestId") else { continue }
                received[id, default: (0, value.integer("parts") ?? 1)].count += 1
            }
            return ids.allSatisfy { id in received[id].map { $0.count >= $0.parts } ?? false }
        }
        var byRequest: [String: [ParsedJSON]] = [:]
        for value in values { if let id = value.text("requestId") { byRequest[id, default: []].append(value) } }
        var whole: [String: (outcome: ParsedJSON, parts: Int)] = [:]
        for (id, parts) in byRequest {
            let sorted = parts.sorted { ($0.integer("part") ?? 0) < ($1.integer("part") ?? 0) }
            guard let first = sorted.first else { continue }
            let outcome = first["parts"] == nil ? first : try ResultParts.reassemble(sorted)
            whole[id] = (outcome, sorted.count)
        }
        return whole
    }
}
