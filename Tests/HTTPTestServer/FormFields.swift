import FeatureQuerySupport
package import Hummingbird

/// One `name=value` pair of a query string or an `application/x-www-form-urlencoded` body, decoded.
///
/// Hummingbird's `uri.queryParameters` percent-decodes but keeps `+`, and reads no form body; the fake servers
/// read arguments as ArcGIS and OGC servers do: from either, in order, with `+` as a space.
package struct FormField: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// The pairs of `text` (`a=1&b&c=x+y`), in order; a bare name has an empty value, a bad escape stays as is.
    package static func decode(_ text: some StringProtocol) -> [FormField] {
        PercentDecoding.formPairs(text).map { FormField(name: $0.name, value: $0.value) }
    }
}

extension Request {
    /// The query string's fields, in order.
    package var queryItems: [FormField] { FormField.decode(uri.query ?? "") }

    /// The body's bytes (``TestHTTPServer`` has read it whole before the handler runs).
    package func bodyBytes() async throws -> [UInt8] {
        Array(try await body.collect(upTo: .max).readableBytesView)
    }

    /// The body's fields when it is a form, else none.
    package func formFields() async throws -> [FormField] {
        guard headers[.contentType]?.lowercased().hasPrefix("application/x-www-form-urlencoded") == true else { return [] }
        return FormField.decode(String(decoding: try await bodyBytes(), as: UTF8.self))
    }

    /// Query fields then form fields: where an ArcGIS-style service reads its arguments (GET for short
    /// queries, a form POST for long ones).
    package func parameters() async throws -> [FormField] { queryItems + (try await formFields()) }
}

extension [FormField] {
    /// The first value named `name`.
    package func value(_ name: String) -> String? { first { $0.name == name }?.value }
}

extension HTTPFields {
    /// The first value of the field named `name` (any case); nil for a name that isn't a valid field name.
    /// Setting replaces every field of that name (a name that isn't valid is ignored).
    package subscript(_ name: String) -> String? {
        get { HTTPFields.Element.Name(name).flatMap { self[values: $0].first } }
        set {
            guard let field = HTTPFields.Element.Name(name) else { return }
            self[field] = newValue
        }
    }

    /// Every value of the field named `name`, in order.
    package func values(_ name: String) -> [String] {
        HTTPFields.Element.Name(name).map { self[values: $0] } ?? []
    }
}
