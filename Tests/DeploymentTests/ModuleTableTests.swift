import Foundation
import Testing

/// docs/architecture.md holds the project's one module table; it must not drift from Package.swift. Every
/// library and executable target under `Sources/` is a row, and each row's dependency columns list exactly
/// what Package.swift declares for it (this package's targets, and other packages by name).
@Suite struct ModuleTableTests {
    private static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// A row of the table: the modules it names and its two dependency columns.
    struct Row {
        var modules: [String]
        var localDependencies: Set<String>
        var packageDependencies: Set<String>
    }

    static func rows(_ markdown: String) throws -> [Row] {
        let section = try #require(markdown.components(separatedBy: "## Modules").dropFirst().first)
        return section.components(separatedBy: "\n").filter { $0.hasPrefix("| `") }.map { line in
            let cells = line.split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            func names(_ cell: String) -> [String] {
                cell == "—" ? [] : cell.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).replacingOccurrences(of: "`", with: "") }
            }
            return Row(
                modules: names(cells[1]), localDependencies: Set(names(cells[3])), packageDependencies: Set(names(cells[4])))
        }
    }

    static func sourceModules() throws -> [PackageManifestReader.Target] {
        let manifest = try String(contentsOf: root.appendingPathComponent("Package.swift"), encoding: .utf8)
        return PackageManifestReader(manifest).targets.filter { $0.kind != "testTarget" && ($0.path == nil || $0.path?.hasPrefix("Sources/") == true) }
    }

    @Test func everyModuleHasARowAndEveryRowAModule() throws {
        let table = try Self.rows(String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8))
        let documented = table.flatMap(\.modules)
        let declared = try Self.sourceModules().map(\.name)
        #expect(declared.count > 20, "the manifest reader found \(declared)")
        #expect(Set(documented) == Set(declared), "documented only: \(Set(documented).subtracting(declared)); declared only: \(Set(declared).subtracting(documented))")
        #expect(documented.count == Set(documented).count, "a module has two rows")
    }

    @Test func eachRowListsItsDependenciesAsDeclared() throws {
        let table = try Self.rows(String(contentsOf: Self.root.appendingPathComponent("docs/architecture.md"), encoding: .utf8))
        let declared = Dictionary(try Self.sourceModules().map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        for row in table {
            for module in row.modules {
                let target = try #require(declared[module], "\(module) is not in Package.swift")
                #expect(row.localDependencies == target.localDependencies, "\(module): this package's dependencies")
                #expect(row.packageDependencies == target.packageDependencies, "\(module): other packages")
            }
        }
    }

    /// The reader itself: a manifest it misreads would make the checks above pass or fail for nothing.
    @Test func theReaderReadsTargetsAndBothKindsOfDependency() {
        let manifest = #"""
            let metrics: Target.Dependency = .product(name: "Metrics", package: "swift-metrics")
            let package = Package(targets: [
                .target(name: "A", dependencies: ["B", metrics, .product(name: "Logging", package: "swift-log")]),
                .executableTarget(name: "B", dependencies: [], path: "Benchmarks/Sources/B"),
                .testTarget(name: "ATests", dependencies: ["A"]),
            ])
            """#
        let targets = PackageManifestReader(manifest).targets
        #expect(targets.map(\.name).sorted() == ["A", "ATests", "B"])
        let a = targets.first { $0.name == "A" }
        #expect(a?.localDependencies == ["B"])
        #expect(a?.packageDependencies == ["swift-metrics", "swift-log"])
        #expect(targets.first { $0.name == "B" }?.path == "Benchmarks/Sources/B")
    }
}
