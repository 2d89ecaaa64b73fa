internal import CCurl
internal import CCurlShims
import FeatureQuerySupport
import Logging
import Synchronization

/// One request's transfer: its easy-handle settings, the callbacks that fill its response, and how it ends.
///
/// Fields marked "loop" are touched only on the client's loop thread (libcurl calls the callbacks there,
/// inside `curl_multi_perform`). The outcome is handed over under a lock, exactly once.
final class CurlTransfer: @unchecked Sendable {
    struct Settings {
        var connectTimeout: Duration
        var timeout: Duration?
        var lowSpeedLimit: HTTPClientConfiguration.LowSpeedLimit?
        var maxResponseSize: Int
        var userAgent: String
        var enableHTTP2: Bool
        var dnsCacheTimeout: Duration
        var credential: HTTPCredentialRule?
        /// Asked before each new connection (see `CurlConnectionGate.swift`); `nil` installs no callback.
        var connectionPolicy: HTTPConnectionPolicy? = nil
        /// The URL's host, as the policy sees it.
        var host: String = ""
        /// Whether the URL's scheme (as validated) is https: where HTTP/2 can be negotiated.
        var isHTTPS: Bool = false
        /// The client's logger when it is at `.trace`: libcurl's verbose output goes there, redacted
        /// (`CurlVerboseLog`). `nil` leaves verbose output off.
        var verboseLogger: Logger? = nil
        /// The client decided "no proxy" (``CurlProxyEnvironment``): `CURLOPT_PROXY` and `CURLOPT_NOPROXY`
        /// are "", and URLs with a query may go as ``originForm``.
        var noProxy: Bool = false
        /// The URL split into what libcurl parses and the request target (see ``CurlOriginForm``); nil sends
        /// the whole URL as `CURLOPT_URL`.
        var originForm: CurlOriginForm? = nil
        /// ``HTTPClientConfiguration/decodesContentEncoding``: client-wide, so every transfer of a loop (and every
        /// reused handle) has the same value.
        var decodesContentEncoding: Bool = true
    }

    let request: HTTPRequest
    let settings: Settings
    let sink = CurlResponseSink()
    /// This transfer's ``Profile``; `nil` when its handle must be reset after it.
    let profile: Profile?

    // loop
    var easy: UnsafeMutableRawPointer?
    private var headerList: UnsafeMutablePointer<curl_slist>?
    private(set) var responseHeaders = HTTPHeaders()
    private(set) var body: [UInt8] = []
    private(set) var exceededSize = false
    /// The first address the connection policy refused, for the error message.
    var refusedConnection: String?
    private let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    private let cancelled = Atomic<Bool>(false)

    init(request: HTTPRequest, settings: Settings) {
        self.request = request
        self.settings = settings
        self.profile = Self.profile(of: request, settings)
        errorBuffer.initialize(repeating: 0, count: Int(CURL_ERROR_SIZE) + 1)
    }

    deinit {
        if let headerList { curl_slist_free_all(headerList) }
        errorBuffer.deallocate()
    }

    var isCancelled: Bool { cancelled.load(ordering: .acquiring) }
    func markCancelled() { cancelled.store(true, ordering: .releasing) }

    // MARK: Setup (loop)

    /// Every option, on a handle with libcurl's defaults (new or reset).
    func configure(_ handle: UnsafeMutableRawPointer) throws(HTTPError) {
        let easy = CurlEasy(handle: handle)
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        try easy.set(CURLOPT_PROTOCOLS_STR, "http,https")
        try easy.set(CURLOPT_NOSIGNAL, true)
        try check(qw_curl_easy_setopt_write_cb(handle, CURLOPT_WRITEFUNCTION, Self.writeCallback))
        try check(qw_curl_easy_setopt_write_cb(handle, CURLOPT_HEADERFUNCTION, Self.headerCallback))
        try easy.set(CURLOPT_FOLLOWLOCATION, false)  // redirects are the client's decision, per origin
        if settings.decodesContentEncoding {
            try easy.set(CURLOPT_ACCEPT_ENCODING, "")  // every decoder built in: gzip, deflate, br, zstd
        } else {
            try easy.set(CURLOPT_HTTP_CONTENT_DECODING, false)  // the body as sent, whatever its Content-Encoding
        }
        try easy.set(CURLOPT_SSL_VERIFYPEER, true)
        try easy.set(CURLOPT_SSL_VERIFYHOST, 2)
        try easy.set(CURLOPT_TCP_KEEPALIVE, true)
        try easy.set(CURLOPT_USERAGENT, settings.userAgent)
        try easy.set(CURLOPT_DNS_CACHE_TIMEOUT, Int(settings.dnsCacheTimeout.components.seconds))
        try easy.set(CURLOPT_HTTP_VERSION, settings.enableHTTP2 ? CURL_HTTP_VERSION_2TLS : CURL_HTTP_VERSION_1_1)
        // Waiting for a connection that may multiplex only pays off where HTTP/2 can be negotiated (TLS).
        try easy.set(CURLOPT_PIPEWAIT, settings.enableHTTP2 && settings.isHTTPS)
        try easy.set(CURLOPT_CONNECTTIMEOUT_MS, Int(settings.connectTimeout.clampedMilliseconds))
        if let timeout = settings.timeout { try easy.set(CURLOPT_TIMEOUT_MS, Int(timeout.clampedMilliseconds)) }
        if let low = settings.lowSpeedLimit {
            try easy.set(CURLOPT_LOW_SPEED_LIMIT, low.bytesPerSecond)
            try easy.set(CURLOPT_LOW_SPEED_TIME, max(1, Int(low.duration.components.seconds)))
        }
        // A HEAD reads no body, and its Content-Length is the resource's size (an object store's HEAD of a
        // multi-gigabyte object): libcurl would refuse it as a file too large.
        if request.method != .head {
            try easy.set(CURLOPT_MAXFILESIZE_LARGE, offset: Int64(settings.maxResponseSize))
        }
        if settings.noProxy {
            // "No proxy", decided by the client: libcurl then reads none of the proxy variables per transfer.
            try easy.set(CURLOPT_PROXY, "")
            try easy.set(CURLOPT_NOPROXY, "")
        }
        try configureMethodAndBody(easy)
        if let credential = settings.credential { try configure(credential, easy) }
        if let signing = request.options.awsSigning {
            try easy.set(CURLOPT_AWS_SIGV4, signing.curlProvider)
            // Separate options rather than `CURLOPT_USERPWD`: no ':' in a secret can move the split.
            try easy.set(CURLOPT_USERNAME, signing.accessKeyID)
            try easy.set(CURLOPT_PASSWORD, signing.secretAccessKey)
        }
        try installConnectionGate(handle, opaque: opaque)
        if settings.verboseLogger != nil { try CurlVerboseLog.install(on: easy, opaque: opaque) }
        try configureRequest(handle)
    }

    /// The options that differ from one request to the next of one ``Profile``: on a handle that holds the
    /// rest already, the only ones set.
    func configureRequest(_ handle: UnsafeMutableRawPointer) throws(HTTPError) {
        let easy = CurlEasy(handle: handle)
        let opaque = Unmanaged.passUnretained(self).toOpaque()
        if let originForm = settings.originForm {
            try originForm.apply(request.url, to: easy)
        } else {
            try easy.set(CURLOPT_URL, request.url)
        }
        try easy.set(CURLOPT_PRIVATE, pointer: opaque)
        try easy.set(CURLOPT_ERRORBUFFER, pointer: errorBuffer)
        try easy.set(CURLOPT_WRITEDATA, pointer: opaque)
        try easy.set(CURLOPT_HEADERDATA, pointer: opaque)
        if settings.connectionPolicy != nil { try easy.set(CURLOPT_OPENSOCKETDATA, pointer: opaque) }
        if settings.verboseLogger != nil { try easy.set(CURLOPT_DEBUGDATA, pointer: opaque) }
        try configureHeaders(easy)
    }

    /// Clears the pointers into a finished transfer, and its request target, from a handle that keeps its
    /// other options.
    static func forgetRequest(_ handle: UnsafeMutableRawPointer) {
        _ = qw_curl_easy_setopt_ptr(handle, CURLOPT_REQUEST_TARGET, nil)
        _ = qw_curl_easy_setopt_ptr(handle, CURLOPT_PRIVATE, nil)
        _ = qw_curl_easy_setopt_ptr(handle, CURLOPT_ERRORBUFFER, nil)
        _ = qw_curl_easy_setopt_ptr(handle, CURLOPT_HTTPHEADER, nil)
    }

    private func configureMethodAndBody(_ easy: CurlEasy) throws(HTTPError) {
        switch request.method {
        case .get where request.body == nil:
            try easy.set(CURLOPT_HTTPGET, true)
        case .head:
            try easy.set(CURLOPT_NOBODY, true)
        default:
            if let body = request.body {
                try easy.set(CURLOPT_POSTFIELDSIZE_LARGE, offset: Int64(body.count))
                // COPYPOSTFIELDS copies: the request's array need not outlive this call.
                let failure = body.withUnsafeBytes { bytes -> HTTPError? in
                    do throws(HTTPError) {
                        try easy.set(CURLOPT_COPYPOSTFIELDS, pointer: bytes.baseAddress ?? UnsafeRawPointer(errorBuffer))
                        return nil
                    } catch {
                        return error
                    }
                }
                if let failure { throw failure }
            }
            if request.method != .post || request.body == nil {
                try easy.set(CURLOPT_CUSTOMREQUEST, request.method.rawValue)
            }
        }
    }

    private func configureHeaders(_ easy: CurlEasy) throws(HTTPError) {
        let signing = request.options.awsSigning
        // Without a body there is no "Expect" to suppress: a request without headers needs no list.
        guard request.body != nil || !request.headers.isEmpty || signing != nil else {
            return try easy.set(CURLOPT_HTTPHEADER, pointer: nil)
        }
        var list: UnsafeMutablePointer<curl_slist>?
        func append(_ line: String) throws(HTTPError) {
            guard let appended = curl_slist_append(list, line) else {
                if let list { curl_slist_free_all(list) }
                throw HTTPError(code: .other, message: "out of memory building request headers")
            }
            list = appended
        }
        if let signing {
            // libcurl signs every line of this list: an "Expect:" line would be signed but never sent.
            if request.headers[HTTPAWSSigning.payloadHashHeader] == nil {
                let hash = request.body.map(SHA256.hexDigest) ?? SHA256.hexDigest([])
                try append("\(HTTPAWSSigning.payloadHashHeader): \(hash)")
            }
            if let token = signing.sessionToken { try append("\(HTTPAWSSigning.sessionTokenHeader): \(token)") }
        } else {
            // No "Expect: 100-continue" round trip for form posts.
            try append("Expect:")
        }
        for field in request.headers { try append("\(field.name): \(field.value)") }
        headerList = list
        try easy.set(CURLOPT_HTTPHEADER, pointer: list.map { UnsafeRawPointer($0) })
    }

    private func configure(_ rule: HTTPCredentialRule, _ easy: CurlEasy) throws(HTTPError) {
        if let ca = rule.caBundlePath { try easy.set(CURLOPT_CAINFO, ca) }
        if let pinned = rule.pinnedPublicKey { try easy.set(CURLOPT_PINNEDPUBLICKEY, pinned) }
        switch rule.clientCertificate {
        case .pem(let certificate, let key, let passphrase):
            try easy.set(CURLOPT_SSLCERT, certificate)
            try easy.set(CURLOPT_SSLCERTTYPE, "PEM")
            try easy.set(CURLOPT_SSLKEY, key)
            if let passphrase { try easy.set(CURLOPT_KEYPASSWD, passphrase) }
        case .pkcs12(let path, let password):
            try easy.set(CURLOPT_SSLCERT, path)
            try easy.set(CURLOPT_SSLCERTTYPE, "P12")
            if let password { try easy.set(CURLOPT_KEYPASSWD, password) }
        case nil:
            break
        }
        if let auth = rule.authentication {
            let scheme: UInt = switch auth.scheme {
            case .basic: QW_CURLAUTH_BASIC
            case .digest: QW_CURLAUTH_DIGEST
            case .ntlm: QW_CURLAUTH_NTLM
            case .negotiate: QW_CURLAUTH_NEGOTIATE
            case .any: QW_CURLAUTH_ANY
            }
            try easy.set(CURLOPT_HTTPAUTH, Int(bitPattern: scheme))
            try easy.set(CURLOPT_USERNAME, auth.username)
            try easy.set(CURLOPT_PASSWORD, auth.password)
        }
    }

    private func check(_ code: CURLcode) throws(HTTPError) {
        guard code == CURLE_OK else { throw HTTPError(code: .other, message: "libcurl refused a callback", curlCode: Int32(code.rawValue)) }
    }

    // MARK: Callbacks (loop)

    static let writeCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, opaque in
        guard let opaque else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(opaque).takeUnretainedValue()
        let length = size * count
        guard let data, length > 0 else { return length }
        return transfer.received(UnsafeRawBufferPointer(start: data, count: length))
    }

    static let headerCallback: @convention(c) (UnsafeMutablePointer<CChar>?, Int, Int, UnsafeMutableRawPointer?) -> Int = {
        data, size, count, opaque in
        guard let opaque, let data else { return 0 }
        let transfer = Unmanaged<CurlTransfer>.fromOpaque(opaque).takeUnretainedValue()
        let length = size * count
        transfer.headerLine(UnsafeRawBufferPointer(start: data, count: length))
        return length
    }

    private func received(_ bytes: UnsafeRawBufferPointer) -> Int {
        // Enforced here too: MAXFILESIZE only works when the server announces the length.
        guard body.count + bytes.count <= settings.maxResponseSize else {
            exceededSize = true
            return 0  // libcurl aborts the transfer with CURLE_WRITE_ERROR
        }
        if body.isEmpty, let easy, let length = Optional(CurlEasy(handle: easy).long(CURLINFO_CONTENT_LENGTH_DOWNLOAD_T)), length > 0 {
            body.reserveCapacity(min(length, settings.maxResponseSize))
        }
        body.append(contentsOf: bytes)
        return bytes.count
    }

    /// Parses one header line on its bytes: this runs for every header of every response, and Character
    /// processing (where "\r\n" is one Character) is both slower and a trap.
    private func headerLine(_ line: UnsafeRawBufferPointer) {
        var end = line.count
        while end > 0, line[end - 1] == 13 || line[end - 1] == 10 { end -= 1 }
        if end >= 5, line.starts(with: "HTTP/".utf8) {
            responseHeaders = HTTPHeaders()  // a new response (after 100-continue or an auth challenge)
            body.removeAll(keepingCapacity: true)
            return
        }
        guard let colon = line[..<end].firstIndex(of: UInt8(ascii: ":")) else { return }
        var valueStart = colon + 1
        while valueStart < end, line[valueStart] == 32 || line[valueStart] == 9 { valueStart += 1 }
        var valueEnd = end
        while valueEnd > valueStart, line[valueEnd - 1] == 32 || line[valueEnd - 1] == 9 { valueEnd -= 1 }
        let name = String(decoding: UnsafeRawBufferPointer(rebasing: line[..<colon]), as: UTF8.self)
        let value = String(decoding: UnsafeRawBufferPointer(rebasing: line[valueStart..<valueEnd]), as: UTF8.self)
        if responseHeaders.isEmpty { responseHeaders.reserveCapacity(Self.expectedHeaderFields) }
        responseHeaders.add(name, value)
    }

    /// Header fields a response usually has (nginx, ArcGIS Server and pygeoapi send 5 to 12).
    private static let expectedHeaderFields = 12

    /// Status, headers, effective URL and HTTP version of the response so far.
    private func head() -> (status: Int, headers: HTTPHeaders, url: String, version: String) {
        guard let easy else { return (0, responseHeaders, request.url, "1.1") }
        let curl = CurlEasy(handle: easy)
        let version = curl.long(CURLINFO_HTTP_VERSION) == CURL_HTTP_VERSION_2_0 ? "2" : "1.1"
        // The effective URL is the request's (libcurl follows no redirects here): reuse that string when the
        // bytes agree, instead of copying a new one out of libcurl for every response.
        // With an origin form, libcurl's URL is the request's without the query.
        let url = curl.string(CURLINFO_EFFECTIVE_URL, reusing: request.url, prefixLength: settings.originForm?.queryStart) ?? request.url
        return (curl.long(CURLINFO_RESPONSE_CODE), responseHeaders, url, version)
    }

    /// The outcome after libcurl reported the transfer done.
    func outcome(_ code: CURLcode) -> Result<HTTPResponse, HTTPError> {
        if exceededSize || code == CURLE_FILESIZE_EXCEEDED {
            return .failure(HTTPError(code: .tooLarge, message: "the response body is larger than \(settings.maxResponseSize) bytes (\(request.url))"))
        }
        if code == CURLE_COULDNT_CONNECT, let refused = refusedConnection {
            return .failure(HTTPError(
                code: .connectionRefusedByPolicy,
                message: "connection to \(refused) for \(settings.host) refused by policy (\(request.url))",
                curlCode: Int32(code.rawValue)
            ))
        }
        guard code == CURLE_OK else {
            let detail = String(cString: errorBuffer)
            return .failure(HTTPError.curl(code, detail: detail, url: request.url))
        }
        let head = head()
        return .success(HTTPResponse(status: head.status, headers: head.headers, body: body, url: head.url, httpVersion: head.version))
    }

    /// Frees what the easy handle pointed at; the handle itself goes back to the loop.
    func detach() {
        easy = nil
        if let headerList {
            curl_slist_free_all(headerList)
            self.headerList = nil
        }
    }
}
