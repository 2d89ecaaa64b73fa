import FeatureQuerySupport
import FeatureService
import StoredResults

extension ResultMessage {
    /// `,"location":{…}`: where a stored layer's object is (contract 1.3), instead of its `features` or
    /// `objectIds` (``JSONWriter/storedLocation(_:)``, shared with `export --store`).
    static func writeLocation(_ stored: StoredSelection, to writer: inout JSONWriter) {
        writer.comma()
        writer.key("location")
        writer.storedLocation(stored)
    }
}
