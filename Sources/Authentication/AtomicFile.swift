import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes a small private file so that readers see either its old or its new content: temporary file with
/// mode 0600 beside it, `fsync`, `rename`, then `fsync` of the folder so the rename itself is durable.
enum AtomicFile {
    static func replace(_ path: String, with bytes: [UInt8]) throws(RefreshTokenFile.Failure) {
        func failure(_ what: String) -> RefreshTokenFile.Failure {
            RefreshTokenFile.Failure(code: .writeFailed, message: "the refresh token file \(path) can't be written: \(what) (errno \(errno))")
        }
        let folder = (path as NSString).deletingLastPathComponent
        let directory = folder.isEmpty ? "." : folder
        let name = (path as NSString).lastPathComponent
        var random = SystemRandomNumberGenerator()
        let temporary = "\(directory)/.\(name).\(random.next() as UInt64).tmp"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw failure("creating a temporary file in \(directory) failed") }
        var written = 0
        let ok = bytes.withUnsafeBytes { buffer -> Bool in
            while written < buffer.count {
                let result = write(descriptor, buffer.baseAddress.map { $0 + written }, buffer.count - written)
                if result < 0 {
                    if errno == EINTR { continue }
                    return false
                }
                written += result
            }
            return true
        }
        guard ok, fchmod(descriptor, 0o600) == 0, fsync(descriptor) == 0 else {
            let error = failure("writing the temporary file failed")
            close(descriptor)
            unlink(temporary)
            throw error
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let error = failure("renaming the temporary file over it failed")
            unlink(temporary)
            throw error
        }
        let folderDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if folderDescriptor >= 0 {
            _ = fsync(folderDescriptor)
            close(folderDescriptor)
        }
    }
}
