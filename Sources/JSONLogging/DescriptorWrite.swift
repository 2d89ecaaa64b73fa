#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Writes all of `bytes` to `descriptor`, again after a partial write or `EINTR`; gives up silently on any
/// other failure (a closed or full standard output must not stop the worker: logging has nowhere to report).
func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) {
    guard let base = bytes.baseAddress else { return }
    var offset = 0
    while offset < bytes.count {
        #if canImport(Glibc)
        let written = Glibc.write(descriptor, base + offset, bytes.count - offset)
        #else
        let written = Darwin.write(descriptor, base + offset, bytes.count - offset)
        #endif
        if written > 0 {
            offset += written
        } else if written < 0 && errno == EINTR {
            continue
        } else {
            return
        }
    }
}
