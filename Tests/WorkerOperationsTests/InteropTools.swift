import ChildProcessFixture
import Foundation

/// The programs the interop tests drive (Debian's `chromium`, `prometheus`, `promtool`; scripts/setup-deps
/// installs them): a test needing one is skipped when it is absent, unless `QUERY_WORKER_REQUIRE_INTEROP=1`
/// (scripts/test sets it), which makes it run and fail instead.
enum InteropTools {
    static var interopRequired: Bool { ProcessInfo.processInfo.environment["QUERY_WORKER_REQUIRE_INTEROP"] == "1" }

    /// The path of `name` on PATH (or under /usr/bin), if installed.
    static func path(_ name: String) -> String? {
        let directories = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map(String.init) + ["/usr/bin"]
        return directories.map { "\($0)/\(name)" }.first { FileManager.default.isExecutableFile(atPath: $0) }
    }

    /// Whether the tests needing `names` run: all installed, or interop demanded.
    static func runs(_ names: String...) -> Bool {
        interopRequired || names.allSatisfy { path($0) != nil }
    }

    /// A fresh temporary directory, removed by the caller.
    static func temporaryDirectory(_ prefix: String) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }
}

/// Reads the status page's figures from a DOM as Chromium serialised it: attributes of elements with a given
/// id, and rows of a table. Regular expressions suffice: the page's markup is this package's own, attribute
/// order and quoting included.
struct StatusPageDOM {
    let html: String

    /// `data-value` of the element with `id`.
    func value(_ id: String) -> String? {
        first(#"id="\#(id)"[^>]*data-value="([^"]*)""#)
    }

    /// The rows of table `id`: each row's `data-` attributes.
    func rows(_ id: String) -> [[String: String]] {
        guard let start = html.range(of: #"<table id="\#(id)""#), let end = html.range(of: "</table>", range: start.upperBound..<html.endIndex)
        else { return [] }
        let table = String(html[start.lowerBound..<end.upperBound])
        let rowPattern = try? NSRegularExpression(pattern: #"<tr ((?:data-[a-z-]+="[^"]*"\s*)+)>"#)
        let attributePattern = try? NSRegularExpression(pattern: #"data-([a-z-]+)="([^"]*)""#)
        guard let rowPattern, let attributePattern else { return [] }
        let range = NSRange(table.startIndex..., in: table)
        return rowPattern.matches(in: table, range: range).compactMap { match in
            guard let attributes = Range(match.range(at: 1), in: table).map({ String(table[$0]) }) else { return nil }
            var row: [String: String] = [:]
            for pair in attributePattern.matches(in: attributes, range: NSRange(attributes.startIndex..., in: attributes)) {
                if let key = Range(pair.range(at: 1), in: attributes), let value = Range(pair.range(at: 2), in: attributes) {
                    row[String(attributes[key])] = String(attributes[value])
                }
            }
            return row
        }
    }

    /// The first capture group of `pattern`.
    func first(_ pattern: String) -> String? {
        guard let expression = try? NSRegularExpression(pattern: pattern),
            let match = expression.firstMatch(in: html, range: NSRange(html.startIndex..., in: html)),
            let range = Range(match.range(at: 1), in: html)
        else { return nil }
        return String(html[range])
    }
}
