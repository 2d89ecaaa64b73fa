import Foundation

/// The targets Package.swift declares, read from its text: enough of the manifest for the documentation
/// checks, without running the package manager (a test must not build or resolve anything).
struct PackageManifestReader {
    /// One target: its name, where its sources are, and what it depends on, split into this package's
    /// targets and other packages.
    struct Target: Equatable {
        var kind: String
        var name: String
        var path: String?
        var localDependencies: Set<String>
        var packageDependencies: Set<String>
    }

    let targets: [Target]

    init(_ text: String) {
        let variables = Self.dependencyVariables(in: text)
        var targets: [Target] = []
        for kind in ["systemLibrary", "target", "executableTarget", "testTarget"] {
            var searchStart = text.startIndex
            while let open = text.range(of: ".\(kind)(", range: searchStart..<text.endIndex) {
                searchStart = open.upperBound
                guard let block = Self.balanced(text, from: open.upperBound, open: "(", close: ")") else { continue }
                let body = String(text[block])
                guard let name = Self.firstCapture(#"^\s*name:\s*"([^"]+)""#, in: body) else { continue }
                var local: Set<String> = []
                var packages: Set<String> = []
                if let start = body.range(of: "dependencies:"),
                    let bracket = body[start.upperBound...].firstIndex(of: "["),
                    let list = Self.balanced(body, from: body.index(after: bracket), open: "[", close: "]")
                {
                    var entries = String(body[list])
                    for product in Self.captures(#"\.product\([^)]*package:\s*"([^"]+)"[^)]*\)"#, in: entries) {
                        packages.insert(product)
                    }
                    entries = entries.replacingOccurrences(of: #"\.product\([^)]*\)"#, with: "", options: .regularExpression)
                    local.formUnion(Self.captures(#""([^"]+)""#, in: entries))
                    for word in Self.captures(#"\b([a-z][A-Za-z]*)\b"#, in: entries) {
                        if let package = variables[word] { packages.insert(package) }
                    }
                }
                targets.append(Target(
                    kind: kind, name: name, path: Self.firstCapture(#"path:\s*"([^"]+)""#, in: body),
                    localDependencies: local, packageDependencies: packages))
            }
        }
        self.targets = targets
    }

    /// `let metrics: Target.Dependency = .product(name: "Metrics", package: "swift-metrics")` → metrics: swift-metrics.
    private static func dependencyVariables(in text: String) -> [String: String] {
        var variables: [String: String] = [:]
        let pattern = #"let (\w+): Target\.Dependency = \.product\([^)]*package:\s*"([^"]+)""#
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [:] }
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let name = Range(match.range(at: 1), in: text), let package = Range(match.range(at: 2), in: text) else { continue }
            variables[String(text[name])] = String(text[package])
        }
        return variables
    }

    /// The text between `start` (just after an opening bracket) and its matching closing bracket.
    private static func balanced(_ text: String, from start: String.Index, open: Character, close: Character) -> Range<String.Index>? {
        var depth = 1
        var index = start
        var inString = false
        while index < text.endIndex {
            let character = text[index]
            if character == "\"" { inString.toggle() }
            if !inString {
                if character == open { depth += 1 }
                if character == close {
                    depth -= 1
                    if depth == 0 { return start..<index }
                }
            }
            index = text.index(after: index)
        }
        return nil
    }

    private static func captures(_ pattern: String, in text: String) -> [String] {
        guard let regex = try? NSRegularExpression(pattern: pattern) else { return [] }
        return regex.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap { match in
            Range(match.range(at: 1), in: text).map { String(text[$0]) }
        }
    }

    private static func firstCapture(_ pattern: String, in text: String) -> String? {
        captures(pattern, in: text).first
    }
}
