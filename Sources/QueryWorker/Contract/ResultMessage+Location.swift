import FeatureQuerySupport
import FeatureService

extension ResultMessage {
    /// `,"location":{…}`: where a stored layer's object is (contract 1.3), instead of its `features` or
    /// `objectIds`. `features` or `ids` counts what the object holds, named by what it holds, so that a reader
    /// knows what it will parse before fetching it.
    static func writeLocation(_ stored: StoredSelection, to writer: inout JSONWriter) {
        writer.comma()
        writer.key("location")
        writer.raw("{")
        writer.key("url")
        writer.string(stored.url)
        writer.comma()
        writer.key("httpUrl")
        writer.string(stored.httpURL)
        writer.comma()
        writer.key("expiresAt")
        writer.timestamp(milliseconds: stored.expiresAt)
        writer.comma()
        writer.key("bytes")
        writer.integer(stored.bytes)
        writer.comma()
        writer.key("sha256")
        writer.string(stored.sha256)
        writer.comma()
        writer.key("contentType")
        writer.string(stored.contentType)
        if let encoding = stored.contentEncoding {
            writer.comma()
            writer.key("contentEncoding")
            writer.string(encoding)
        }
        writer.comma()
        switch stored.kind {
        case .features: writer.key("features")
        case .ids: writer.key("ids")
        }
        writer.integer(stored.count)
        writer.raw("}")
    }
}
