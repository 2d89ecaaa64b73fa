internal import CCurl
internal import CCurlShims
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Typed setters over an easy handle. libcurl copies string arguments, so temporaries are fine. A setter
/// that fails names the option, so a libcurl built without a feature gives a clear error.
struct CurlEasy {
    let handle: UnsafeMutableRawPointer

    func set(_ option: CURLoption, _ value: Int) throws(HTTPError) {
        try check(qw_curl_easy_setopt_long(handle, option, value), option)
    }

    func set(_ option: CURLoption, _ value: Bool) throws(HTTPError) {
        try set(option, value ? 1 : 0)
    }

    func set(_ option: CURLoption, _ value: String) throws(HTTPError) {
        try check(value.withCString { qw_curl_easy_setopt_ptr(handle, option, $0) }, option)
    }

    func set(_ option: CURLoption, pointer: UnsafeRawPointer?) throws(HTTPError) {
        try check(qw_curl_easy_setopt_ptr(handle, option, pointer), option)
    }

    func set(_ option: CURLoption, offset: Int64) throws(HTTPError) {
        try check(qw_curl_easy_setopt_off_t(handle, option, curl_off_t(offset)), option)
    }

    func long(_ info: CURLINFO) -> Int {
        var value = 0
        return qw_curl_easy_getinfo_long(handle, info, &value) == CURLE_OK ? value : 0
    }

    func string(_ info: CURLINFO) -> String? {
        var value: UnsafePointer<CChar>?
        guard qw_curl_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        return String(cString: value)
    }

    /// A string property; `known` itself when libcurl's bytes are exactly its UTF-8 (no copy then).
    func string(_ info: CURLINFO, reusing known: String) -> String? {
        var value: UnsafePointer<CChar>?
        guard qw_curl_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        var known = known
        let same = known.withUTF8 { bytes in
            let length = strlen(value)
            guard length == bytes.count else { return false }
            guard let base = bytes.baseAddress else { return true }
            return memcmp(base, value, length) == 0
        }
        return same ? known : String(cString: value)
    }

    private func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPError) {
        guard code == CURLE_OK else {
            let text = curl_easy_strerror(code).map { String(cString: $0) } ?? "error"
            throw HTTPError(
                code: .invalidRequest,
                message: "libcurl refused option \(option.rawValue): \(text)",
                curlCode: Int32(code.rawValue),
                curlMessage: text
            )
        }
    }
}
