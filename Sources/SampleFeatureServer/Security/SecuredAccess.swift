/// How security applies to one request path: a security endpoint, a path in the secured folder (routed
/// as the same path without the folder), or a public path.
struct SecuredAccess: Sendable, Hashable {
    /// The path the REST router reads: the folder taken out.
    let routePath: String
    /// In the secured folder.
    let inFolder: Bool
    /// A token endpoint or the admin path.
    let endpoint: SecurityEndpoint?
    /// The whole services tree wants a token.
    let securesEverything: Bool

    init(path: String, security: SampleSecurity?) {
        guard let security else {
            routePath = path
            inFolder = false
            endpoint = nil
            securesEverything = false
            return
        }
        endpoint = SecurityEndpoint(path: path)
        let inside = SecurityPaths.insideFolder(path, folder: security.securedFolder)
        routePath = inside ?? path
        inFolder = inside != nil
        securesEverything = security.securesEverything
    }

    /// Whether a request for `route` must carry a valid token.
    func isSecured(_ route: Route) -> Bool {
        if inFolder { return true }
        return securesEverything && route != .info && route != .outside
    }
}
