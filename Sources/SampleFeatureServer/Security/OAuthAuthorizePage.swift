import Hummingbird
import Synchronization

/// `oauth2/authorize`: checks the client and its exact redirect URI (errors there are pages, never
/// redirects, as OAuth requires), then approves at once when the `autoApprove` knob is on, or shows a
/// sign-in form whose `username` and `password` (GET or POST, same parameters plus those two) approve.
/// `deny=true` declines. Approval redirects (302) to `redirect_uri?code=...&state=...`; for
/// `urn:ietf:wg:oauth:2.0:oob` it answers a page with the code in `<code id="code">`.
enum OAuthAuthorizePage {
    static func answer(_ parameters: RequestParameters, authority: SampleTokenAuthority) -> Response {
        let (client, knobs) = authority.state.withLock { state in
            state.counters.authorize += 1
            return (parameters["client_id"].flatMap { state.clients[$0] }, state.knobs)
        }
        guard let client else { return SecurityResponses.page("Invalid client", "Invalid client_id.", status: 400) }
        guard let redirect = parameters["redirect_uri"], client.redirectURIs.contains(redirect) else {
            return SecurityResponses.page("Invalid redirect_uri", "The redirect_uri is not registered for this application.", status: 400)
        }
        let state = parameters["state"]
        guard parameters["response_type"] == "code" else { return back(redirect, ["error": "unsupported_response_type"], state: state) }
        let challenge = parameters["code_challenge"] ?? ""
        if !challenge.isEmpty, parameters["code_challenge_method"] != "S256" {
            return back(redirect, ["error": "invalid_request", "error_description": "code_challenge_method must be S256"], state: state)
        }
        if challenge.isEmpty, client.clientSecret == nil {
            return back(redirect, ["error": "invalid_request", "error_description": "code_challenge is required"], state: state)
        }
        if parameters["deny"] == "true" { return back(redirect, ["error": "access_denied"], state: state) }
        let username: String
        if knobs.autoApprove {
            username = knobs.approvingUser
        } else if parameters["username"] != nil || parameters["password"] != nil {
            let signedIn = authority.state.withLock { state in
                try? state.signIn(username: parameters["username"], password: parameters["password"])
            }
            guard let signedIn else { return form(parameters, message: "Invalid username or password.") }
            username = signedIn.username
        } else {
            return form(parameters, message: nil)
        }
        let code = authority.state.withLock {
            $0.authorizationCode(clientID: client.clientID, redirectURI: redirect, challenge: challenge, username: username)
        }
        if redirect == "urn:ietf:wg:oauth:2.0:oob" {
            let page = "<!DOCTYPE html>\n<html><body><p>Copy this code:</p><code id=\"code\">\(code)</code></body></html>\n"
            return .text(page, contentType: HTMLPage.contentType)
        }
        return back(redirect, ["code": code], state: state)
    }

    /// A 302 to the redirect URI with the parameters (and `state` when given).
    private static func back(_ redirect: String, _ values: KeyValuePairs<String, String>, state: String?) -> Response {
        var pairs = values.map { ($0.key, $0.value) }
        if let state { pairs.append(("state", state)) }
        let query = pairs.map { $0.0 + "=" + SecurityPaths.encode($0.1) }.joined(separator: "&")
        return .redirect(to: redirect + (redirect.contains("?") ? "&" : "?") + query, type: .found)
    }

    /// The sign-in form, carrying the authorization parameters as hidden fields.
    private static func form(_ parameters: RequestParameters, message: String?) -> Response {
        let names = ["client_id", "response_type", "redirect_uri", "code_challenge", "code_challenge_method", "state"]
        let hidden = names.compactMap { name in
            parameters[name].map { "<input type=\"hidden\" name=\"\(name)\" value=\"\(HTMLPage.escape($0))\">" }
        }.joined()
        let note = message.map { "<p class=\"error\">\(HTMLPage.escape($0))</p>" } ?? ""
        let html = "<!DOCTYPE html>\n<html><head><title>Sign in</title></head><body><h1>Sign in</h1>\(note)"
            + "<form method=\"post\">\(hidden)<input name=\"username\"><input name=\"password\" type=\"password\">"
            + "<button type=\"submit\">Sign in</button></form></body></html>\n"
        return .text(html, contentType: HTMLPage.contentType)
    }
}
