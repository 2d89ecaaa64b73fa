#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Credentials
import Foundation

/// What the credentials file is at one moment: where its path leads after every symlink, and its bytes.
///
/// The reloader compares versions to notice a change. Comparing bytes catches an edit in place and an editor's
/// save by rename; comparing the resolved path catches a Kubernetes secret or ConfigMap update, which points
/// the volume's `..data` symlink at a new folder (a swap that keeps the bytes equal but changes files the
/// credentials name beside it, such as a client certificate, is still a new version to check).
struct CredentialsFileVersion: Sendable, Hashable {
    /// The configured path.
    let path: String
    /// The path with every symlink resolved; `nil` when it leads nowhere.
    let resolvedPath: String?
    /// The file's bytes; `nil` when it can't be read.
    let content: [UInt8]?

    /// The file now. Reads one byte more than a credentials file may have, so an oversized file is recognised
    /// without reading all of it.
    static func read(path: String) -> CredentialsFileVersion {
        CredentialsFileVersion(path: path, resolvedPath: resolved(path), content: contents(path))
    }

    private static func resolved(_ path: String) -> String? {
        guard let pointer = realpath(path, nil) else { return nil }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    private static func contents(_ path: String) -> [UInt8]? {
        guard let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        do {
            // `nil` at the end of the file: an empty file, which is read (and refused as not JSON).
            return Array(try handle.read(upToCount: CredentialsFile.maxFileBytes + 1) ?? Data())
        } catch {
            return nil
        }
    }
}
