import FeatureQuerySupport
import Hummingbird
import Synchronization

/// `/_sample/security`, test-only: GET answers the knobs and counters as JSON; POST (form fields or query
/// parameters) changes them first, then answers the same. For servers run as child processes (the demo,
/// benchmarks), where Swift calls cannot reach the authority.
///
/// Fields: every ``SampleSecurityKnobs`` property by name (`tokenLifetimeSeconds=2`, `ssl=true`, ...);
/// `rejectNext=N` with `rejectCode=498|499|403` and `rejectShape=body|status|admin`; `revokeAll=true`
/// (with `revokeRefreshTokens=true` for refresh tokens too); `resetCounters=true`; `username` with
/// `password` (and `permitted=false`) to add a user or change a password; `addAPIKey=KEY`,
/// `expireAPIKey=KEY`. HTTP 400 for a field it does not know or a value it cannot read.
enum SecurityAdmin {
    static func answer(_ request: SampleRequest, authority: SampleTokenAuthority) -> Response {
        if request.method == .post {
            do throws(AdminFieldError) {
                try apply(RequestParameters(request.parameters), names: request.parameters.map(\.name), to: authority)
            } catch {
                var json = JSONWriter(capacity: 96)
                json.raw("{\"error\":")
                json.string(error.message)
                json.raw("}")
                return SecurityResponses.body(json.bytes, status: 400)
            }
        }
        return SecurityResponses.body(document(authority))
    }

    private static let knobNames: Set<String> = [
        "tokenLifetimeSeconds", "refreshTokenLifetimeSeconds", "authorizationCodeLifetimeSeconds", "enforcesReferer",
        "requiresRefererClient", "ssl", "clockSkewSeconds", "autoApprove", "approvingUser", "federatedAcceptsPortalTokens",
        "lockoutAfterWrongPasswords",
    ]
    private static let actionNames: Set<String> = [
        "rejectNext", "rejectCode", "rejectShape", "revokeAll", "revokeRefreshTokens", "resetCounters", "username", "password", "permitted",
        "addAPIKey", "expireAPIKey",
    ]

    private static func apply(_ fields: RequestParameters, names: [String], to authority: SampleTokenAuthority) throws(AdminFieldError) {
        for name in names where !knobNames.contains(name) && !actionNames.contains(name) {
            throw AdminFieldError(message: "unknown field '\(name.prefix(40))'")
        }
        var knobs = authority.knobs
        try set(&knobs.tokenLifetimeSeconds, fields, "tokenLifetimeSeconds")
        try set(&knobs.refreshTokenLifetimeSeconds, fields, "refreshTokenLifetimeSeconds")
        try set(&knobs.authorizationCodeLifetimeSeconds, fields, "authorizationCodeLifetimeSeconds")
        try set(&knobs.clockSkewSeconds, fields, "clockSkewSeconds", minimum: Int.min)
        try set(&knobs.lockoutAfterWrongPasswords, fields, "lockoutAfterWrongPasswords", minimum: 0)
        try set(&knobs.enforcesReferer, fields, "enforcesReferer")
        try set(&knobs.requiresRefererClient, fields, "requiresRefererClient")
        try set(&knobs.ssl, fields, "ssl")
        try set(&knobs.autoApprove, fields, "autoApprove")
        try set(&knobs.federatedAcceptsPortalTokens, fields, "federatedAcceptsPortalTokens")
        if let user = fields["approvingUser"] { knobs.approvingUser = user }
        let rejectNext = try integer(fields, "rejectNext", minimum: 1)
        let code = try integer(fields, "rejectCode", minimum: 1) ?? 498
        guard [498, 499, 403].contains(code) else { throw AdminFieldError(message: "rejectCode must be 498, 499 or 403") }
        let shapeName = fields["rejectShape"] ?? SampleRejectionShape.errorBody.rawValue
        guard let shape = SampleRejectionShape(rawValue: shapeName) else { throw AdminFieldError(message: "rejectShape must be body, status or admin") }
        var permitted = true
        try set(&permitted, fields, "permitted")
        var revokeAll = false
        var revokeRefresh = false
        var reset = false
        try set(&revokeAll, fields, "revokeAll")
        try set(&revokeRefresh, fields, "revokeRefreshTokens")
        try set(&reset, fields, "resetCounters")
        if (fields["username"] == nil) != (fields["password"] == nil) {
            throw AdminFieldError(message: "username and password go together")
        }
        authority.updateKnobs { $0 = knobs }
        if let rejectNext { authority.rejectNext(rejectNext, code: code, shape: shape) }
        if revokeAll || revokeRefresh { authority.revokeAllTokens(includingRefreshTokens: revokeRefresh) }
        if reset { authority.resetCounters() }
        if let key = fields["addAPIKey"] { authority.addAPIKey(key) }
        if let key = fields["expireAPIKey"] { authority.expireAPIKey(key) }
        if let username = fields["username"], let password = fields["password"] {
            authority.setUser(SampleUser(username: username, password: password, permitted: permitted))
        }
    }

    private static func set(_ value: inout Int, _ fields: RequestParameters, _ name: String, minimum: Int = 1) throws(AdminFieldError) {
        if let number = try integer(fields, name, minimum: minimum) { value = number }
    }

    private static func integer(_ fields: RequestParameters, _ name: String, minimum: Int) throws(AdminFieldError) -> Int? {
        guard let text = fields[name] else { return nil }
        guard let number = Int(text.trimmingSpaces()), number >= minimum else {
            throw AdminFieldError(message: "\(name) must be a whole number of at least \(minimum)")
        }
        return number
    }

    private static func set(_ value: inout Bool, _ fields: RequestParameters, _ name: String) throws(AdminFieldError) {
        guard let text = fields[name] else { return }
        switch text.lowercased() {
        case "true": value = true
        case "false": value = false
        default: throw AdminFieldError(message: "\(name) must be true or false")
        }
    }

    /// `{"knobs":{...},"counters":{...},"issuedTokens":N,"portalUrl":...}`.
    static func document(_ authority: SampleTokenAuthority) -> [UInt8] {
        let (knobs, counters, issued) = authority.state.withLock { ($0.knobs, $0.counters, $0.tokens.count) }
        var json = JSONWriter(capacity: 768)
        json.raw("{\"knobs\":{")
        let numbers: [(String, Int)] = [
            ("tokenLifetimeSeconds", knobs.tokenLifetimeSeconds), ("refreshTokenLifetimeSeconds", knobs.refreshTokenLifetimeSeconds),
            ("authorizationCodeLifetimeSeconds", knobs.authorizationCodeLifetimeSeconds), ("clockSkewSeconds", knobs.clockSkewSeconds),
            ("lockoutAfterWrongPasswords", knobs.lockoutAfterWrongPasswords),
        ]
        let flags: [(String, Bool)] = [
            ("enforcesReferer", knobs.enforcesReferer), ("requiresRefererClient", knobs.requiresRefererClient), ("ssl", knobs.ssl),
            ("autoApprove", knobs.autoApprove), ("federatedAcceptsPortalTokens", knobs.federatedAcceptsPortalTokens),
        ]
        for (name, value) in numbers {
            json.key(escaping: name)
            json.integer(value)
            json.raw(",")
        }
        for (name, value) in flags {
            json.key(escaping: name)
            json.bool(value)
            json.raw(",")
        }
        json.raw("\"approvingUser\":")
        json.string(knobs.approvingUser)
        json.raw("},\"counters\":{")
        let counts: [(String, Int)] = [
            ("generateToken", counters.generateToken), ("exchange", counters.exchange), ("serverGenerateToken", counters.serverGenerateToken),
            ("authorize", counters.authorize), ("revoke", counters.revoke), ("wrongPasswords", counters.wrongPasswords),
            ("lockedOut", counters.lockedOut),
            ("forcedRejections", counters.forcedRejections), ("accepted", counters.accepted), ("ogcUnauthorized", counters.ogcUnauthorized),
            ("tokenCalls", counters.tokenCalls),
        ]
        for (name, value) in counts {
            json.key(escaping: name)
            json.integer(value)
            json.raw(",")
        }
        json.raw("\"oauthToken\":{")
        for (index, grant) in counters.oauthToken.keys.sorted().enumerated() {
            if index > 0 { json.raw(",") }
            json.key(escaping: grant)
            json.integer(counters.oauthToken(grant))
        }
        json.raw("},\"rejected\":{")
        for (index, code) in counters.rejected.keys.sorted().enumerated() {
            if index > 0 { json.raw(",") }
            json.key(escaping: String(code))
            json.integer(counters.rejected(code))
        }
        json.raw("}},\"issuedTokens\":")
        json.integer(issued)
        json.raw(",\"portalUrl\":")
        if let portal = authority.portalURL { json.string(portal) } else { json.raw("null") }
        json.raw("}")
        return json.bytes
    }
}

/// A field of the admin endpoint it cannot apply.
struct AdminFieldError: Error, Sendable {
    var message: String
}
