/// A fault specification that could not be read.
package struct FaultSpecError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong with the specification, and the grammar.
    package var message: String
    package var description: String { message }
}

extension FaultRule {
    /// The grammar of ``init(spec:)``, for `--help` texts.
    package static let specHelp = """
        KIND[:OPTION=VALUE,...] where KIND is latency (ms=), http500, http503 (retry-after=), http429 \
        (retry-after=), truncate, arcgis-error, html (status=), short-pages (max=), huge-body (mb=, length=0|1); options for every kind: \
        path=SUBSTRING, first=N, skip=N, probability=P, seed=S. \
        E.g. http503:retry-after=2,path=USA/MapServer/1,first=2
        """

    /// Reads a rule written as on the command line: `http503:retry-after=2,path=/query,first=2`,
    /// `latency:ms=200`, `arcgis-error:probability=0.1,seed=7`, `short-pages:max=500`.
    package init(spec: String) throws(FaultSpecError) {
        let parts = spec.split(separator: ":", maxSplits: 1)
        guard let kindName = parts.first?.lowercased() else { throw FaultSpecError(message: "an empty fault") }
        var options: [String: String] = [:]
        if parts.count == 2 {
            for option in parts[1].split(separator: ",") {
                let pair = option.split(separator: "=", maxSplits: 1)
                guard pair.count == 2 else { throw FaultSpecError(message: "fault option '\(option)' is not NAME=VALUE") }
                options[pair[0].lowercased()] = String(pair[1])
            }
        }
        func number(_ name: String, _ fallback: Int) throws(FaultSpecError) -> Int {
            guard let text = options.removeValue(forKey: name) else { return fallback }
            guard let value = Int(text), value >= 0 else {
                throw FaultSpecError(message: "fault option \(name) must be a whole number >= 0; found '\(text)'")
            }
            return value
        }
        let kind: Kind
        switch kindName {
        case "latency": kind = .latency(milliseconds: try number("ms", 100))
        case "http500", "500": kind = .http500
        case "http503", "503": kind = .http503(retryAfterSeconds: try number("retry-after", 1))
        case "http429", "429": kind = .http429(retryAfterSeconds: try number("retry-after", 1))
        case "truncate", "truncated-body": kind = .truncatedBody
        case "arcgis-error": kind = .arcgisError
        case "html", "html-page": kind = .htmlPage(status: try number("status", 200))
        case "short-pages": kind = .shortPages(maximum: max(1, try number("max", 500)))
        case "huge-body": kind = .hugeBody(megabytes: max(1, try number("mb", 100)), announced: try number("length", 1) != 0)
        default: throw FaultSpecError(message: "unknown fault kind '\(kindName)'; \(FaultRule.specHelp)")
        }
        let path = options.removeValue(forKey: "path")
        var trigger = Trigger.always
        if let text = options.removeValue(forKey: "probability") {
            guard let probability = Double(text), (0...1).contains(probability) else {
                throw FaultSpecError(message: "fault option probability must be between 0 and 1; found '\(text)'")
            }
            trigger = .probability(probability, seed: UInt64(try number("seed", 1)))
        } else if options["first"] != nil || options["skip"] != nil {
            let skip = try number("skip", 0)
            let count: Int? = options["first"] == nil ? nil : try number("first", 0)
            trigger = .window(skip: skip, count: count)
        }
        if let unknown = options.keys.sorted().first {
            throw FaultSpecError(message: "unknown fault option '\(unknown)'; \(FaultRule.specHelp)")
        }
        self.init(kind, pathContains: path, trigger: trigger)
    }
}
