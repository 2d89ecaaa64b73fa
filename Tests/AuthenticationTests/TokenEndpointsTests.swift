import Authentication
import Credentials
import Testing

@Suite("Token endpoints derived from URLs")
struct TokenEndpointsTests {
    @Test("the site root is the URL up to the segment before /rest/")
    func siteRoot() {
        #expect(TokenEndpoints.siteRoot(of: "https://gis.example.com/arcgis/rest/services/A/FeatureServer/0?f=json") == "https://gis.example.com/arcgis")
        #expect(TokenEndpoints.siteRoot(of: "https://gis.example.com:6443/server/rest/info") == "https://gis.example.com:6443/server")
        #expect(TokenEndpoints.siteRoot(of: "https://gis.example.com/portal/sharing/rest/content") == "https://gis.example.com/portal/sharing")
        #expect(TokenEndpoints.siteRoot(of: "https://gis.example.com/ogc/collections") == nil)
        #expect(TokenEndpoints.siteRoot(of: "https://gis.example.com/a/restful/x") == nil)
    }

    @Test("a generateToken URL's portal; none for a server's token service")
    func portalOfTokenURL() throws {
        let portal = try #require(TokenEndpoints.portal(ofTokenURL: "https://gis.example.com/portal/sharing/rest/generateToken"))
        #expect(TokenEndpoints.requestURL(portal) == "https://gis.example.com/portal")
        #expect(TokenEndpoints.same("https://GIS.example.com:443/portal/", "https://gis.example.com/portal"))
        #expect(!TokenEndpoints.same("https://gis.example.com/portal", "https://gis.example.com/portal2"))
        #expect(TokenEndpoints.portal(ofTokenURL: "https://gis.example.com/arcgis/tokens/generateToken") == nil)
        #expect(TokenEndpoints.requestURL(try CredentialURL(parsing: "http://127.0.0.1:8080/p")) == "http://127.0.0.1:8080/p")
    }

    @Test("ArcGIS Online's hosted services take its portal token; Enterprise servers and plain http do not")
    func arcgisOnline() {
        let online = "https://www.arcgis.com/sharing/rest/generateToken"
        #expect(TokenEndpoints.isArcGISOnline(site: "https://services3.arcgis.com/AbC123/arcgis", portalTokenURL: online))
        #expect(!TokenEndpoints.isArcGISOnline(site: "https://gis.example.com/server", portalTokenURL: online))
        #expect(!TokenEndpoints.isArcGISOnline(site: "https://services3.arcgis.com/AbC123/arcgis", portalTokenURL: "https://gis.example.com/portal/sharing/rest/generateToken"))
        #expect(!TokenEndpoints.isArcGISOnline(site: "https://services3.arcgis.com.evil.net/arcgis", portalTokenURL: online))
    }
}
