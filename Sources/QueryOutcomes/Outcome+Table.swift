import Foundation

/// The feature-table members of a result (contract 1.2) as `query` reads them: rows of named values, whose
/// names come from the request, so they are decoded as ordered pairs rather than into fixed fields.
extension Outcome {
    /// A value of a result row: a number, a string or null (dates arrive as epoch milliseconds).
    package enum FieldValue: Sendable, Hashable, Decodable, CustomStringConvertible {
        case null
        case integer(Int64)
        case number(Double)
        case string(String)
        case bool(Bool)

        package init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let number = try? container.decode(Int64.self) {
                self = .integer(number)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else if let flag = try? container.decode(Bool.self) {
                self = .bool(flag)
            } else {
                self = .string(try container.decode(String.self))
            }
        }

        /// `12`, `0.5`, `Residential`, or `null`: how a table cell shows it.
        package var description: String {
            switch self {
            case .null: "null"
            case .integer(let number): String(number)
            case .number(let number): "\(number)"
            case .string(let text): text
            case .bool(let flag): String(flag)
            }
        }
    }

    /// A JSON object's members in the order the message wrote them (`JSONDecoder` loses the order of a
    /// dictionary, and a table's columns should follow the request).
    package struct FieldValues: Sendable, Decodable {
        package var pairs: [(name: String, value: FieldValue)]

        private struct Key: CodingKey {
            var stringValue: String
            var intValue: Int? { nil }
            init(stringValue: String) { self.stringValue = stringValue }
            init?(intValue: Int) { nil }
        }

        package init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: Key.self)
            pairs = try container.allKeys.map { ($0.stringValue, try container.decode(FieldValue.self, forKey: $0)) }
        }

        /// The value of `name`, `nil` when the row has no such member.
        package subscript(name: String) -> FieldValue? { pairs.first { $0.name == name }?.value }
    }

    /// One group of a statistics answer.
    package struct StatisticsRow: Sendable, Decodable {
        package var group: FieldValues
        package var values: FieldValues
    }

    /// A layer's `extent`.
    package struct Extent: Sendable, Decodable {
        package struct Reference: Sendable, Decodable { package var wkid: Int }
        package var xmin: Double
        package var ymin: Double
        package var xmax: Double
        package var ymax: Double
        package var spatialReference: Reference?
    }
}
