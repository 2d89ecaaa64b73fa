import FeatureQuerySupport
package import Foundation

/// The contract's example requests and cancels, the valid messages every mutation starts from.
package enum ContractSeeds {
    /// The repository's `docs/contract/examples` folder, found from this file's place in the repository.
    package static let examplesDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("docs/contract/examples")

    /// The bytes of every `request-*.json` and `cancel-*.json` in `directory`, sorted by name so a seed
    /// always means the same inputs.
    package static func load(from directory: URL = examplesDirectory) throws -> [[UInt8]] {
        let names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
            .filter { ($0.hasPrefix("request-") || $0.hasPrefix("cancel-")) && $0.hasSuffix(".json") }.sorted()
        guard !names.isEmpty else { throw SeedError(description: "no request-*.json or cancel-*.json in \(directory.path)") }
        return try names.map { Array(try Data(contentsOf: directory.appendingPathComponent($0))) }
    }
}

/// The examples could not be read.
package struct SeedError: Error, CustomStringConvertible {
    package var description: String
}

extension ParsedJSON {
    /// The value as compact JSON bytes.
    var fuzzBytes: [UInt8] {
        var writer = JSONWriter(capacity: 256)
        writer.value(self)
        return writer.bytes
    }
}
