public import Foundation

extension StoredResultReader {
    /// Writes the object at `location`, decompressed (GeoJSON or NDJSON as stored), to `fileURL`, range by range.
    ///
    /// The bytes go to a temporary file next to `fileURL`, which replaces `fileURL` only once the size and SHA-256
    /// are verified: a failed or damaged download never leaves a file that looks complete.
    /// `@concurrent`: the decompression, hashing and file writes run off the caller's actor.
    @concurrent public func download(_ location: StoredResultLocation, to fileURL: URL) async throws(FeatureQueryError) {
        let temporary = fileURL.deletingLastPathComponent()
            .appendingPathComponent(".\(fileURL.lastPathComponent).\(UUID().uuidString.prefix(8)).partial")
        guard FileManager.default.createFile(atPath: temporary.path, contents: nil),
            let handle = FileHandle(forWritingAtPath: temporary.path)
        else { throw FeatureQueryError(.storedResultFile, "cannot write \(temporary.path)") }
        do throws(FeatureQueryError) {
            var fetcher = try fetcher(location)
            var decoder = try StoredObjectDecoder(location)
            var decoded: [UInt8] = []
            while let chunk = try await fetcher.next() {
                decoded.removeAll(keepingCapacity: true)
                try decoder.consume(chunk[...], into: &decoded)
                try Self.write(decoded, to: handle, path: temporary.path)
            }
            try decoder.finish()
            try? handle.close()
            do {
                if FileManager.default.fileExists(atPath: fileURL.path) { try FileManager.default.removeItem(at: fileURL) }
                try FileManager.default.moveItem(at: temporary, to: fileURL)
            } catch {
                throw FeatureQueryError(.storedResultFile, "cannot put the download in place at \(fileURL.path): \(error)")
            }
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }

    private static func write(_ bytes: [UInt8], to handle: FileHandle, path: String) throws(FeatureQueryError) {
        guard !bytes.isEmpty else { return }
        do {
            try handle.write(contentsOf: bytes)
        } catch {
            throw FeatureQueryError(.storedResultFile, "cannot write \(path): \(error)")
        }
    }
}
