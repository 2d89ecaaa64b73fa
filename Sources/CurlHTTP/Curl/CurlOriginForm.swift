internal import CCurl
internal import CCurlShims

/// A plain URL with a query, handed to libcurl in two parts: `CURLOPT_URL` without the query, and
/// `CURLOPT_REQUEST_TARGET` with the path and query exactly as the request line carries them.
///
/// Why: libcurl 7.88 formats a URL's query through its printf, which appends one byte per call, three times
/// per request (the normalised URL it keeps, the path it hands to authentication, and the request line). A
/// GET with a 400-byte query spends more in those calls than in the rest of building the request. Without a
/// query in `CURLOPT_URL` none of the three sees it, and the request line copies the target in one piece.
///
/// The request line is the same bytes either way: the target is the URL from its path on, which is what
/// libcurl sends for the URLs taken here (checked by `OriginFormTests` against a server that records request
/// lines). Taken only when libcurl would neither change nor drop a byte of it:
/// - a plain URL (``RequestValidation/fastScan(_:)``: RFC 3986 characters, valid escapes, no user info or
///   IP literal), whose path starts with `/` and holds no `/.` (libcurl removes dot segments);
/// - a non-empty query and no fragment (libcurl drops fragments and a lone `?` from what it keeps);
/// - no authentication on the transfer (digest hashes the path and query libcurl parsed; a credential rule
///   with only TLS settings is fine);
/// - no proxy: with an HTTP proxy the target must be the absolute URL. The client decides that once, at
///   creation (``CurlProxyEnvironment``), and then tells libcurl the same (`CURLOPT_PROXY` ""), so libcurl
///   cannot pick a proxy from the environment later behind the target's back.
///
/// The response's URL is put back together from libcurl's effective URL (the part before the query) and
/// the query (``CurlEasy/string(_:reusing:prefixLength:)``).
struct CurlOriginForm: Equatable {
    /// Byte offset of the path's `/`: the request target is the URL from here to its end.
    let pathStart: Int
    /// Byte offset of the query's `?`: the URL libcurl parses is the bytes before it.
    let queryStart: Int

    /// The split of a plain URL, or nil when libcurl must have the whole URL (see the type's conditions;
    /// credentials and proxies are the client's to check).
    init?(_ scan: RequestValidation.FastURL) {
        guard let query = scan.queryStart, !scan.hasFragment, !scan.pathHasDotSegment,
            scan.pathStart < query,  // a path: the byte at `pathStart` is its `/`
            query + 1 < scan.length  // a query after the `?`
        else { return nil }
        pathStart = scan.pathStart
        queryStart = query
    }

    /// Sets `CURLOPT_URL` (the URL before the query) and `CURLOPT_REQUEST_TARGET` (from the path on); libcurl
    /// copies both.
    func apply(_ url: String, to easy: CurlEasy) throws(HTTPError) {
        let (urlCode, targetCode) = url.withCString { base -> (CURLcode, CURLcode) in
            let target = qw_curl_easy_setopt_ptr(easy.handle, CURLOPT_REQUEST_TARGET, base + pathStart)
            // The part before the query, NUL-terminated, on the stack for URLs of ordinary length.
            let prefixCode = withUnsafeTemporaryAllocation(of: CChar.self, capacity: queryStart + 1) { prefix -> CURLcode in
                guard let start = prefix.baseAddress else { return CURLE_OUT_OF_MEMORY }
                start.update(from: base, count: queryStart)
                start[queryStart] = 0
                return qw_curl_easy_setopt_ptr(easy.handle, CURLOPT_URL, start)
            }
            return (prefixCode, target)
        }
        try easy.check(urlCode, CURLOPT_URL)
        try easy.check(targetCode, CURLOPT_REQUEST_TARGET)
    }
}
