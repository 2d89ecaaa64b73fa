package import FeatureQuerySupport
package import FeatureService

extension JSONWriter {
    /// A stored layer's `location` object (contract 1.3): where the object is and what it holds, as a result
    /// carries it and as `export --store` prints it. `features` or `ids` counts what the object holds, named by
    /// what it holds, so that a reader knows what it will parse before fetching it.
    package mutating func storedLocation(_ stored: StoredSelection) {
        raw("{")
        key("url")
        string(stored.url)
        comma()
        key("httpUrl")
        string(stored.httpURL)
        comma()
        key("expiresAt")
        timestamp(milliseconds: stored.expiresAt)
        comma()
        key("bytes")
        integer(stored.bytes)
        comma()
        key("sha256")
        string(stored.sha256)
        comma()
        key("contentType")
        string(stored.contentType)
        if let encoding = stored.contentEncoding {
            comma()
            key("contentEncoding")
            string(encoding)
        }
        comma()
        switch stored.kind {
        case .features: key("features")
        case .ids: key("ids")
        }
        integer(stored.count)
        raw("}")
    }
}
