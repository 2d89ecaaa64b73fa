internal import CCurl
internal import CCurlShims
import Foundation
import Logging

/// libcurl's verbose output (connections, TLS, authentication rounds, request and response heads) routed to
/// the client's logger at `.trace`, and only when the logger is at `.trace`: what an operator needs to see
/// why a handshake or a challenge failed.
///
/// Bodies are never logged (libcurl's data and TLS-data records are dropped), and every line goes through
/// ``CurlVerboseRedaction`` first: credentials in headers and all query-parameter values become `<redacted>`.
enum CurlVerboseLog {
    /// Turns verbose output on for one transfer; `opaque` is the transfer (`CURLOPT_DEBUGDATA`).
    static func install(on easy: CurlEasy, opaque: UnsafeMutableRawPointer) throws(HTTPError) {
        let code = qw_curl_easy_setopt_debug_cb(easy.handle, debugCallback)
        guard code == CURLE_OK else {
            throw HTTPError(code: .other, message: "libcurl refused the debug callback", curlCode: Int32(code.rawValue))
        }
        try easy.set(CURLOPT_DEBUGDATA, pointer: opaque)
        try easy.set(CURLOPT_VERBOSE, true)
    }

    static let debugCallback: @convention(c) (UnsafeMutableRawPointer?, curl_infotype, UnsafeMutablePointer<CChar>?, Int, UnsafeMutableRawPointer?) -> Int32 = {
        _, type, data, size, opaque in
        guard let opaque, let data, size > 0 else { return 0 }
        let marker: String
        switch type {
        case CURLINFO_TEXT: marker = "*"
        case CURLINFO_HEADER_OUT: marker = ">"
        case CURLINFO_HEADER_IN: marker = "<"
        default: return 0  // body and TLS data: never logged
        }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(opaque).takeUnretainedValue()
        guard let logger = transfer.settings.verboseLogger else { return 0 }
        let text = String(decoding: UnsafeRawBufferPointer(start: data, count: size), as: UTF8.self)
        for line in text.split(whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" }) where !line.isEmpty {
            logger.trace("curl \(marker) \(CurlVerboseRedaction.redact(String(line)))")
        }
        return 0
    }
}

/// What verbose lines may not show. Header values whose name says they carry a credential (`Authorization`,
/// `Proxy-Authorization`, `X-Esri-Authorization`, `Cookie`, `Set-Cookie`, any name containing `key`,
/// `token`, `secret` or `password`), in HTTP/1 form (`Name: value`) and in libcurl's HTTP/2 form
/// (`[name: value]`); and every query-parameter value of every URL or request line.
package enum CurlVerboseRedaction {
    package static let placeholder = "<redacted>"

    package static func redact(_ line: String) -> String {
        redactHeader(redactQueries(line))
    }

    /// Whether a header of this name carries a credential.
    package static func isSensitive(headerName: some StringProtocol) -> Bool {
        let name = headerName.lowercased()
        return ["authorization", "cookie", "key", "token", "secret", "password"].contains { name.contains($0) }
    }

    /// `Name: value` at the line's start, or `[name: value]` anywhere (libcurl's HTTP/2 text), with a
    /// sensitive name: the value replaced, up to the end of the line (or the bracket's end). Every candidate
    /// is tried, so a value that itself holds brackets can't hide the header.
    private static func redactHeader(_ line: String) -> String {
        let starts = [line.startIndex] + line.indices.filter { line[$0] == "[" }.map { line.index(after: $0) }
        for start in starts {
            guard let colon = line[start...].firstIndex(of: ":") else { continue }
            let name = line[start..<colon].trimmingCharacters(in: .whitespaces)
            // A pseudo-header (`:path`) has an empty name here: its value is a URL, for the query pass.
            guard !name.isEmpty, !name.contains(" "), !name.contains("["), isSensitive(headerName: name) else { continue }
            let closing = start == line.startIndex ? "" : "]"
            return String(line[..<colon]) + ": " + placeholder + closing
        }
        return line
    }

    /// Every `?query` in the line (up to white space, a quote or a bracket) with its values replaced.
    private static func redactQueries(_ line: String) -> String {
        guard line.contains("?") else { return line }
        var output = ""
        var rest = Substring(line)
        while let question = rest.firstIndex(of: "?") {
            output += rest[...question]
            let afterQuestion = rest.index(after: question)
            let end = rest[afterQuestion...].firstIndex { $0 == " " || $0 == "\t" || $0 == "'" || $0 == "\"" || $0 == "]" || $0 == ">" }
                ?? rest.endIndex
            let query = rest[afterQuestion..<end]
            output += query.split(separator: "&", omittingEmptySubsequences: false).map { pair -> String in
                guard let equals = pair.firstIndex(of: "=") else { return String(pair) }
                return pair[...equals] + placeholder
            }.joined(separator: "&")
            rest = rest[end...]
        }
        return output + rest
    }
}
