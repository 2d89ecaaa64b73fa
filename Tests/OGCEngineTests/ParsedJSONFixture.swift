import FeatureQuerySupport

/// JSON text parsed for a test.
enum ParsedJSONFixture {
    static func parse(_ text: String) throws -> ParsedJSON { try ParsedJSON(reading: text) }
}
