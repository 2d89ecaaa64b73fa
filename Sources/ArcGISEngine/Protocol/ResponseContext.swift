import FeatureGeometry
import FeatureQuerySupport
import FeatureService

/// The layer a response belongs to, and the ways its body can fail to be the JSON the protocol promises.
///
/// Every decoder starts here: ``jsonStart(_:)`` refuses empty and HTML bodies, ``document(_:limits:expecting:)``
/// parses the rest, tells a truncated body (retryable) from a broken one, and throws for ArcGIS error bodies.
struct ResponseContext {
    /// The layer URL, normalised: no query, so no token.
    let layer: String

    init(layer: String) {
        self.layer = ArcGISResponse.normalizedURL(layer)
    }

    /// A `.malformedResponse` error: "The response from <layer> <text>".
    func malformed(_ text: String, retryable: Bool = false) -> FeatureServiceError {
        FeatureServiceError(.malformedResponse, "The response from \(layer) \(text)", layer: layer, isRetryable: retryable)
    }

    // MARK: Before parsing

    /// Where the JSON text starts (after a UTF-8 byte-order mark and whitespace). Throws for a body that is
    /// empty or HTML, the two things proxies, gateways and login pages send instead of JSON.
    func jsonStart(_ body: [UInt8]) throws(FeatureServiceError) -> Int {
        var index = 0
        if body.count >= 3, body[0] == 0xEF, body[1] == 0xBB, body[2] == 0xBF { index = 3 }
        while index < body.count, body[index] == 0x20 || body[index] == 0x09 || body[index] == 0x0A || body[index] == 0x0D {
            index += 1
        }
        guard index < body.count else {
            // An empty 200 is what a connection dropped before the body, or an overloaded gateway, leaves.
            throw malformed(
                body.isEmpty ? "is empty where JSON was expected" : "holds only whitespace where JSON was expected",
                retryable: true)
        }
        if body[index] == UInt8(ascii: "<") {
            throw htmlError(body)
        }
        return index
    }

    /// "the service answered HTML, not JSON", with the page's `<title>` when it has one.
    func htmlError(_ body: [UInt8]) -> FeatureServiceError {
        var text = "is not JSON: the service answered HTML, not JSON"
        if let title = Self.htmlTitle(body) {
            text += " (page title \"\(title)\")"
        }
        text += "; a login page, proxy or gateway error page stands in for the service"
        return malformed(text)
    }

    /// The text of the first `<title>` element, whitespace collapsed, tokens redacted, at most 120 characters.
    static func htmlTitle(_ body: [UInt8]) -> String? {
        let limit = min(body.count, 64 * 1024)
        guard let open = find(Array("<title".utf8), in: body, from: 0, to: limit) else { return nil }
        var start = open + 6
        while start < limit, body[start] != UInt8(ascii: ">") { start += 1 }
        start += 1
        guard start < limit else { return nil }
        let end = find(Array("</title".utf8), in: body, from: start, to: limit) ?? min(limit, start + 240)
        let raw = String(decoding: body[start..<max(start, end)], as: UTF8.self)
        let words = raw.split(whereSeparator: { $0.isWhitespace })
        let title = words.joined(separator: " ")
        guard !title.isEmpty else { return nil }
        return ArcGISResponse.redactingTokens(String(title.prefix(120)))
    }

    /// The first offset of `needle` (ASCII, matched case-insensitively) in `haystack[from..<to]`.
    private static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int, to: Int) -> Int? {
        guard to - from >= needle.count else { return nil }
        var index = from
        while index + needle.count <= to {
            var matches = true
            for offset in 0..<needle.count {
                var byte = haystack[index + offset]
                if byte >= 0x41 && byte <= 0x5A { byte += 0x20 }
                if byte != needle[offset] {
                    matches = false
                    break
                }
            }
            if matches { return index }
            index += 1
        }
        return nil
    }

    // MARK: Parsing

    /// Parses the body into its top-level object, or throws: `.malformedResponse` for what is not a JSON object
    /// (truncated bodies retryable), `.limitExceeded` beyond `limits`, and the mapped error for ArcGIS error
    /// bodies. `what` names the expected answer in messages ("layer metadata").
    func document(_ body: [UInt8], limits: DecodingLimits, expecting what: String) throws(FeatureServiceError)
        -> [String: ParsedJSON]
    {
        let start = try jsonStart(body)
        let value: ParsedJSON
        do {
            value = try ParsedJSON(reading: body[start...], limits: limits.jsonReading)
        } catch {
            throw parseFailure(error, body: body, start: start, limits: limits)
        }
        guard case .object(let members) = value else {
            throw malformed("is \(value.shapeDescription), not a JSON object (expected \(what))")
        }
        if let serviceError = ServiceErrorBody(members) {
            throw serviceError.error(layer: layer, httpStatus: nil, retryAfter: nil)
        }
        return members
    }

    /// The error for a body `ParsedJSON` refused: over a limit, truncated (the scanner ran out of input), or
    /// invalid (with the scanner's reason and offset, which count from the start of the body).
    func parseFailure(_ error: JSONReadError, body: [UInt8], start: Int, limits: DecodingLimits) -> FeatureServiceError {
        if error.kind == .limitExceeded {
            return FeatureServiceError(
                .limitExceeded, "The response from \(layer) is beyond the decoding limits: \(error.message)",
                layer: layer)
        }
        let failure = body.withUnsafeBufferPointer { buffer in
            JSONByteScanner.check(UnsafeBufferPointer(rebasing: buffer[start...]))
        }
        return jsonError(failure.map { JSONScanFailure(kind: $0.kind, offset: $0.offset + start, reason: $0.reason) },
                         body: body, start: start, fallback: error.message)
    }

    /// The error for a scanner failure (offsets from the start of the body). `fallback` describes a failure the
    /// scanner did not see (invalid UTF-8 inside a string).
    func jsonError(_ failure: JSONScanFailure?, body: [UInt8], start: Int, fallback: String = "") -> FeatureServiceError {
        guard let failure else {
            return malformed("is not valid JSON: \(fallback)\(snippet(body, start: start))")
        }
        switch failure.kind {
        case .truncated:
            return malformed(
                "ends early, after \(body.count) bytes, in the middle of its JSON (truncated); trying again may help",
                retryable: true)
        case .tooDeep:
            return FeatureServiceError(
                .limitExceeded, "The response from \(layer) is beyond the decoding limits: \(failure.reason)",
                layer: layer)
        case .invalid:
            return malformed(
                "is not valid JSON: \(failure.reason) at byte \(failure.offset)\(snippet(body, start: start))")
        }
    }

    /// "; it begins "Service Unavailable"" for bodies that are not JSON at all (plain text from a gateway).
    private func snippet(_ body: [UInt8], start: Int) -> String {
        guard start < body.count, body[start] != UInt8(ascii: "{"), body[start] != UInt8(ascii: "[") else {
            return ""
        }
        let end = min(body.count, start + 80)
        let text = String(decoding: body[start..<end], as: UTF8.self)
            .split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        return "; it begins \"\(ArcGISResponse.redactingTokens(text))\""
    }
}
