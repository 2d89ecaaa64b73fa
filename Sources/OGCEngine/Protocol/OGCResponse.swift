import CurlHTTP
import EngineExecution
import FeatureQuerySupport
import FeatureService

/// Turns HTTP answers of an OGC API into JSON documents or typed errors, one code per failure:
///
/// - 400 → `invalid_query` with the server's `description` (a bad parameter, a filter it cannot parse);
/// - 401 → `authentication`, 403 → `forbidden`, 404 → `not_found` (an unknown collection, an expired `next`);
/// - 408, 429, 500, 502, 503, 504 → retryable: `service_error` with an exception body, else `http_status`
///   (`retryAfter` from the `Retry-After` header);
/// - any other status → `service_error` with an exception body, else `http_status`;
/// - 2xx whose body is HTML, empty, not JSON or cut short → `malformed_response` (cut short is retryable).
enum OGCResponse {
    /// Throws the error a non-2xx status means.
    static func checkStatus(_ response: HTTPResponse, layer: String, now: Int64 = WallClock.nowSeconds()) throws(FeatureServiceError) {
        let status = response.status
        guard !(200..<300).contains(status) else { return }
        let wait = RetryAfter.delay(response.headers["Retry-After"], now: now)
        let said = serverDescription(response.body)
        let suffix = said.map { ": \($0)" } ?? (htmlTitle(response.body).map { " (an HTML page titled \"\($0)\")" } ?? "")
        let retryable = [408, 429, 500, 502, 503, 504].contains(status)
        let code: FeatureServiceError.Code
        var text = "\(layer) answered HTTP \(status)\(suffix)"
        switch status {
        case 400:
            code = .invalidQuery
            text += "; the server refused the query's parameters"
        case 401:
            code = .authentication
            text += "; credentials are missing or refused"
        case 403:
            code = .forbidden
            text += "; the request is not permitted: check the credential"
        case 404:
            code = .notFound
            text += "; the collection or page does not exist (an expired `next` link answers 404 too)"
        default:
            code = said == nil ? .httpStatus : .serviceError
            if retryable { text += "; trying again later may help" }
        }
        throw FeatureServiceError(
            code, text, layer: layer, isRetryable: retryable, httpStatus: status, details: said.map { [$0] } ?? [],
            retryAfter: wait)
    }

    /// Where a 2xx body's JSON object starts; `malformed_response` for an empty body, an HTML page or
    /// anything that does not start as a JSON object.
    static func objectStart(_ response: HTTPResponse, layer: String, expecting what: String) throws(FeatureServiceError) -> Int {
        let body = response.body
        guard let first = body.firstIndex(where: { !isSpace($0) && $0 != 0xEF && $0 != 0xBB && $0 != 0xBF }) else {
            throw OGCFailure.malformed(layer, "answered an empty body where \(what) was expected", retryable: true)
        }
        if body[first] == UInt8(ascii: "<") {
            let title = htmlTitle(body).map { " titled \"\($0)\"" } ?? ""
            throw OGCFailure.malformed(
                layer, "answered an HTML page\(title) where \(what) was expected (a login page, a proxy, or `f=html`)")
        }
        guard body[first] == UInt8(ascii: "{") else {
            throw OGCFailure.malformed(layer, "answered a body that is not JSON where \(what) was expected")
        }
        return first
    }

    /// The JSON document of a 2xx body; `malformed_response` when it is not one.
    static func document(_ response: HTTPResponse, layer: String, expecting what: String) throws(FeatureServiceError) -> ParsedJSON {
        let body = response.body
        let first = try objectStart(response, layer: layer, expecting: what)
        do {
            let document = try ParsedJSON(reading: body[first...])
            guard case .object = document else {
                throw OGCFailure.malformed(layer, "answered JSON that is not an object where \(what) was expected")
            }
            return document
        } catch let error as JSONReadError {
            let truncated = error.kind == .malformed && (error.message.contains("the input ends") || error.message.contains("the end of the input"))
            throw OGCFailure.malformed(
                layer, "answered \(truncated ? "a JSON body cut short" : "invalid JSON") where \(what) was expected: \(error.message)",
                retryable: truncated)
        } catch let error as FeatureServiceError {
            throw error
        } catch {
            throw OGCFailure.malformed(layer, "answered an unreadable body: \(error)")
        }
    }

    /// The `description` (or `title`, `detail`, `message`) of an exception body; nil when there is none.
    static func serverDescription(_ body: [UInt8]) -> String? {
        guard body.count <= 1 << 20, let first = body.firstIndex(where: { !isSpace($0) }), body[first] == UInt8(ascii: "{"),
            let document = try? ParsedJSON(reading: body[first...])
        else { return nil }
        for key in ["description", "detail", "title", "message"] {
            if let text = document[key]?.stringValue, !text.isEmpty { return String(text.prefix(500)) }
        }
        if let code = document["code"]?.stringValue { return code }
        return nil
    }

    /// An HTML page's `<title>`, if the body is one.
    static func htmlTitle(_ body: [UInt8]) -> String? {
        let lower = body.prefix(4096).map { $0 >= 65 && $0 <= 90 ? $0 + 32 : $0 }
        guard let open = find(Array("<title>".utf8), in: lower, from: 0),
            let close = find(Array("</title>".utf8), in: lower, from: open + 7)
        else { return nil }
        return String(String(decoding: body[(open + 7)..<close], as: UTF8.self).prefix(120))
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard haystack.count >= needle.count, start <= haystack.count - needle.count else { return nil }
        for index in start...(haystack.count - needle.count) where haystack[index..<(index + needle.count)].elementsEqual(needle) {
            return index
        }
        return nil
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }
}
