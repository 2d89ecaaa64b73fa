import FeatureQuerySupport
/// The HTML the server sends: `f=html` pages, the 404 page for paths outside `/arcgis/rest`, and the
/// sign-in page a misconfigured proxy returns in place of JSON.
enum HTMLPage {
    static let contentType = "text/html; charset=utf-8"

    static func page(title: String, body: String) -> String {
        "<!DOCTYPE html>\n<html><head><title>\(escape(title))</title></head><body><h1>\(escape(title))</h1>"
            + "<p>\(escape(body))</p></body></html>\n"
    }

    /// An `f=html` resource page: the JSON shown preformatted, as ArcGIS's HTML views show it.
    static func resource(title: String, json: [UInt8]) -> String {
        let text = String(decoding: JSONPrettyPrinter.pretty(json), as: UTF8.self)
        return "<!DOCTYPE html>\n<html><head><title>\(escape(title)) (ArcGIS REST Services Directory)</title></head>"
            + "<body><h2>\(escape(title))</h2><pre>\(escape(text))</pre></body></html>\n"
    }

    static let signIn = """
        <!DOCTYPE html>
        <html><head><title>Sign In</title></head>
        <body><form method="post" action="/login"><h1>Please sign in</h1>
        <input name="username"><input name="password" type="password"><button>Sign in</button></form></body></html>

        """

    static func escape(_ text: String) -> String { HTMLEscaping.escaped(text) }
}
