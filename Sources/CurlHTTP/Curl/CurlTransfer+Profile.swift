extension CurlTransfer {
    /// Every input of `configure` that is not set again by `configureRequest`, for a plain GET: two
    /// transfers with equal profiles leave an easy handle with the same options, so the second one can
    /// skip `curl_easy_reset` and set only its own URL, headers and pointers.
    ///
    /// Only plain GETs (no body, no credential rule, no AWS signing) have a profile: a method, a body or credentials leave
    /// options behind that a later request must not inherit, so those handles are reset as before.
    struct Profile: Equatable {
        var connectTimeout: Duration
        var timeout: Duration?
        var lowSpeedLimit: HTTPClientConfiguration.LowSpeedLimit?
        var maxResponseSize: Int
        var userAgent: String
        var enableHTTP2: Bool
        var dnsCacheTimeout: Duration
        var isHTTPS: Bool
        var connectionGate: Bool
        var verbose: Bool
        var noProxy: Bool
    }

    /// The profile of a transfer of `request` with `settings` (``profile``, computed once per transfer: the
    /// loop compares it when the transfer starts and keeps it when it ends); `nil` when its handle must be
    /// reset after it.
    static func profile(of request: HTTPRequest, _ settings: Settings) -> Profile? {
        guard request.method == .get, request.body == nil, settings.credential == nil, request.options.awsSigning == nil else {
            return nil
        }
        return Profile(
            connectTimeout: settings.connectTimeout,
            timeout: settings.timeout,
            lowSpeedLimit: settings.lowSpeedLimit,
            maxResponseSize: settings.maxResponseSize,
            userAgent: settings.userAgent,
            enableHTTP2: settings.enableHTTP2,
            dnsCacheTimeout: settings.dnsCacheTimeout,
            isHTTPS: settings.isHTTPS,
            connectionGate: settings.connectionPolicy != nil,
            verbose: settings.verboseLogger != nil,
            noProxy: settings.noProxy
        )
    }
}
