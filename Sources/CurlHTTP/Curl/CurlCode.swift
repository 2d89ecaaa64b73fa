internal import CCurl

extension HTTPError {
    /// Classifies a libcurl failure. `detail` is the transfer's error buffer (more specific than strerror).
    static func curl(_ code: CURLcode, detail: String, url: String) -> HTTPError {
        let text = curl_easy_strerror(code).map { String(cString: $0) } ?? "libcurl error"
        let kind: Code
        let retryable: Bool
        switch code {
        case CURLE_OPERATION_TIMEDOUT:
            (kind, retryable) = (.timeout, true)
        case CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY:
            (kind, retryable) = (.dns, true)
        case CURLE_COULDNT_CONNECT:
            (kind, retryable) = (.connect, true)
        case CURLE_SSL_CONNECT_ERROR, CURLE_PEER_FAILED_VERIFICATION, CURLE_SSL_CERTPROBLEM, CURLE_SSL_CIPHER,
            CURLE_SSL_CACERT_BADFILE, CURLE_SSL_ENGINE_NOTFOUND, CURLE_SSL_ENGINE_SETFAILED, CURLE_SSL_ISSUER_ERROR,
            CURLE_SSL_PINNEDPUBKEYNOTMATCH, CURLE_SSL_INVALIDCERTSTATUS, CURLE_SSL_CRL_BADFILE, CURLE_SSL_SHUTDOWN_FAILED,
            CURLE_SSL_CLIENTCERT:
            (kind, retryable) = (.tls, false)
        case CURLE_FILESIZE_EXCEEDED:
            (kind, retryable) = (.tooLarge, false)
        case CURLE_SEND_ERROR, CURLE_RECV_ERROR, CURLE_GOT_NOTHING, CURLE_PARTIAL_FILE, CURLE_HTTP2_STREAM:
            (kind, retryable) = (.network, true)
        case CURLE_WEIRD_SERVER_REPLY, CURLE_BAD_CONTENT_ENCODING, CURLE_HTTP2, CURLE_UNSUPPORTED_PROTOCOL,
            CURLE_HTTP3:
            (kind, retryable) = (.protocol, false)
        case CURLE_URL_MALFORMAT, CURLE_BAD_FUNCTION_ARGUMENT:
            (kind, retryable) = (.invalidRequest, false)
        case CURLE_TOO_MANY_REDIRECTS:
            (kind, retryable) = (.redirect, false)
        case CURLE_LOGIN_DENIED, CURLE_AUTH_ERROR:
            (kind, retryable) = (.credential, false)
        default:
            (kind, retryable) = (.other, false)
        }
        let message = detail.isEmpty ? "\(text) (\(url))" : "\(detail) (\(url))"
        return HTTPError(code: kind, message: message, isRetryable: retryable, curlCode: Int32(code.rawValue), curlMessage: text)
    }
}
