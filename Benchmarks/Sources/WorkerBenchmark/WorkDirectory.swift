import Foundation

/// A folder for a benchmark's files (the worker's logs, wrk's script): the one given, or a new one under
/// /tmp that is removed at the end.
struct WorkDirectory {
    let path: String
    private let owned: Bool

    init(_ given: String?, prefix: String) throws {
        if let given {
            path = given
            owned = false
        } else {
            path = NSTemporaryDirectory() + "/\(prefix).\(ProcessInfo.processInfo.processIdentifier)"
            owned = true
        }
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Removes the folder if this run made it up.
    func remove() {
        if owned { try? FileManager.default.removeItem(atPath: path) }
    }
}
