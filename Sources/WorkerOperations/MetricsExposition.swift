package import Prometheus

/// The `/metrics` body: the registry's Prometheus text exposition (format 0.0.4) with a `# HELP` line before
/// each family's `# TYPE` line when ``MetricHelp`` knows the name, and the families in name order.
///
/// swift-prometheus writes its families in dictionary order, which changes from one scrape to the next; sorted,
/// two scrapes diff cleanly and a person reads the page top to bottom.
package struct MetricsExposition: Sendable {
    package let registry: PrometheusCollectorRegistry
    package let help: MetricHelp

    package init(registry: PrometheusCollectorRegistry, help: MetricHelp = .worker) {
        self.registry = registry
        self.help = help
    }

    /// The media type Prometheus expects for the text format.
    package static let contentType = "text/plain; version=0.0.4; charset=utf-8"

    /// The exposition, as bytes.
    package func render() -> [UInt8] {
        var bytes: [UInt8] = []
        registry.emit(into: &bytes)
        return Array(Self.annotate(String(decoding: bytes, as: UTF8.self), help: help).utf8)
    }

    /// `text` with HELP lines added where missing and its families sorted by name.
    static func annotate(_ text: String, help: MetricHelp) -> String {
        var families: [(name: String, lines: [Substring])] = []
        var pendingHelp: Substring?
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("# HELP ") {
                pendingHelp = line
            } else if line.hasPrefix("# TYPE "), let name = line.dropFirst(7).split(separator: " ").first {
                var lines: [Substring] = []
                if let pendingHelp {
                    lines.append(pendingHelp)
                } else if let text = help[String(name)] {
                    lines.append(Substring("# HELP \(name) \(escaped(text))"))
                }
                pendingHelp = nil
                lines.append(line)
                families.append((String(name), lines))
            } else if !families.isEmpty {
                families[families.count - 1].lines.append(line)
            }
        }
        families.sort { $0.name < $1.name }
        var result = ""
        for family in families {
            for line in family.lines {
                result += line
                result += "\n"
            }
        }
        return result
    }

    /// HELP text escaping of the text format: backslash and line feed.
    static func escaped(_ text: String) -> String {
        var result = ""
        for character in text {
            switch character {
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            default: result.append(character)
            }
        }
        return result
    }
}
