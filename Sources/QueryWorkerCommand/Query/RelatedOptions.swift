import ArgumentParser
import FeatureQueryClient

/// `query`'s flags for `--result related` (contract 1.2): which relationship to follow and what to ask of the
/// related table. The worker's decoder refuses them with any other result, so the combination is checked
/// before anything is published, with the worker's own message.
struct RelatedOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "With --result related: the relationship to follow, by name, or by id when all digits (ids differ between "
                + "deployments of a service; names do not). --result catalog lists a layer's relationships.",
            valueName: "name|id"),
        transform: RelationshipArgument.parse)
    var relationship: RelationshipArgument?

    @Option(help: ArgumentHelp("With --result related: a where clause on the related table's fields.", valueName: "clause"))
    var relatedWhere: String?

    @Option(
        help: ArgumentHelp("With --result related: the related table's fields each record carries (comma list; default all).", valueName: "fields"),
        transform: FieldList.parse)
    var relatedOutFields: FieldList?

    @Option(
        help: ArgumentHelp(
            "With --result related: FIELD[:desc], the order of each feature's related records. Repeatable; ties by the "
                + "related table's object id.",
            valueName: "field"),
        transform: OrderArgument.parse)
    var relatedOrderBy: [OrderArgument] = []

    func validate() throws {
        let ordered = relatedOrderBy.map(\.field)
        if Set(ordered).count != ordered.count { throw ValidationError("a --related-order-by field is named twice") }
    }

    /// Adds the flags' members to `query`.
    func apply(to query: inout Query) {
        query.relationship = relationship.map { argument in argument.id.map(Query.Relationship.id) ?? .name(argument.name ?? "") }
        query.relatedWhere = relatedWhere
        query.relatedOutFields = relatedOutFields?.names
        if !relatedOrderBy.isEmpty {
            query.relatedOrderBy = relatedOrderBy.map { Query.Order($0.field, descending: $0.descending) }
        }
    }
}

/// `--relationship NAME|ID`: an id when the value is all ASCII digits, else a name.
struct RelationshipArgument: Sendable, Hashable {
    var name: String?
    var id: Int?

    static func parse(_ argument: String) throws -> RelationshipArgument {
        guard !argument.isEmpty else { throw ValidationError("--relationship names no relationship") }
        if argument.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) {
            guard let id = Int(argument), id <= 2_147_483_647 else {
                throw ValidationError("--relationship \(argument) is not a relationship id (0 to 2147483647)")
            }
            return RelationshipArgument(id: id)
        }
        return RelationshipArgument(name: argument)
    }
}
