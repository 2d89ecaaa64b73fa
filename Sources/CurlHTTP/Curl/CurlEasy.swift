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
    ///
    /// With `prefixLength`, libcurl holds `known` cut before that byte offset (``CurlOriginForm`` gives it the
    /// URL without its query): the result is libcurl's string followed by the rest of `known`, which is
    /// `known` itself when libcurl's bytes are its prefix.
    func string(_ info: CURLINFO, reusing known: String, prefixLength: Int? = nil) -> String? {
        var value: UnsafePointer<CChar>?
        guard qw_curl_easy_getinfo_string(handle, info, &value) == CURLE_OK, let value else { return nil }
        var known = known
        // nil: libcurl's bytes are `known`'s first `length` bytes.
        let rebuilt = known.withUTF8 { bytes -> String? in
            let length = min(prefixLength ?? bytes.count, bytes.count)
            if strlen(value) == length, length == 0 || bytes.baseAddress.map({ memcmp($0, value, length) == 0 }) == true {
                return nil
            }
            let tail = UnsafeBufferPointer(rebasing: bytes[length...])
            return String(cString: value) + String(decoding: tail, as: UTF8.self)
        }
        return rebuilt ?? known
    }

    func check(_ code: CURLcode, _ option: CURLoption) throws(HTTPError) {
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
