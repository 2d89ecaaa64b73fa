/// URLs and state of a secured server (``SampleServerConfiguration/security``).
extension SampleFeatureServer {
    /// The authority behind the server's tokens; nil for a public server.
    package var tokenAuthority: SampleTokenAuthority? { configuration.security?.authority }

    /// The portal URL (`http://host:port/portal`) when this server plays the portal.
    package var portalURL: String? {
        configuration.security?.role == .portal ? rootURL + SecurityPaths.portalMount : nil
    }

    /// The server root that generateToken's `serverUrl` names: `http://host:port/arcgis`.
    package var serverRootURL: String { rootURL + "/arcgis" }

    /// The token service this server's `/rest/info` names (the portal's for a portal or federated
    /// server, its own for a standalone one); nil for a public server.
    package var tokenServicesURL: String? {
        guard let security = configuration.security else { return nil }
        return SecurityHandler(security: security).authInfo(origin: rootURL).tokenServicesURL
    }

    /// The secured folder's directory: `…/arcgis/rest/services/Secured`.
    package var securedBaseURL: String { baseURL + "/" + (configuration.security?.securedFolder ?? "Secured") }

    /// A layer's URL in the secured folder, e.g. `…/arcgis/rest/services/Secured/LA_County_Parcels/FeatureServer/0`.
    package func securedLayerURL(_ layer: SampleLayer) -> String { securedBaseURL + "/" + layer.path }

    /// A layer's query URL in the secured folder.
    package func securedQueryURL(_ layer: SampleLayer) -> String { securedLayerURL(layer) + "/query" }

    /// The secured OGC face: `http://host:port/ogc-secured`.
    package var securedOGCURL: String { rootURL + "/ogc-secured" }

    /// `http://host:port/_sample/security`: the knobs and counters over HTTP.
    package var securityAdminURL: String { rootURL + SecurityPaths.admin }
}
