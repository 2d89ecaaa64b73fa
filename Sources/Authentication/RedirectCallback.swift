import Credentials
import LoopbackHTTP

/// What the browser brought to the loopback listener.
enum RedirectCallback: Sendable {
    case code(Secret)
    case denied(String)
    case wrongState
    case malformed

    /// Reads a request to the listener; `nil` for anything but a GET of the redirect's path (a favicon).
    init?(_ request: LoopbackRequest, redirect: LoopbackRedirect, state: String) {
        func trimmed(_ path: String) -> Substring {
            var path = Substring(path)
            while path.count > 1, path.hasSuffix("/") { path = path.dropLast() }
            return path
        }
        guard request.method == "GET", trimmed(request.path) == trimmed(redirect.path) else { return nil }
        let items = request.queryItems
        func value(_ name: String) -> String? { items.first { $0.name == name }?.value }
        guard value("state") == state else {
            self = .wrongState
            return
        }
        if let error = value("error") {
            self = .denied(String(error.unicodeScalars.filter { $0.isASCII && ($0.properties.isAlphabetic || $0 == "_") }.prefix(40).map(Character.init)))
        } else if let code = value("code"), !code.isEmpty {
            self = .code(Secret(code))
        } else {
            self = .malformed
        }
    }

    /// What the browser shows.
    var page: LoopbackResponse {
        switch self {
        case .code: .text("Signed in. You can close this window and return to query-worker.\n")
        case .denied: .text("The sign-in was declined. Return to query-worker.\n")
        case .wrongState: .text("This redirect belongs to another sign-in; nothing was stored.\n", status: 400)
        case .malformed: .text("The redirect carried no authorization code.\n", status: 400)
        }
    }
}
