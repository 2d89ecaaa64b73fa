import FeatureService
import QueryLanguage

extension QuerySpec {
    /// The members of `result: related`, as the request gave them. Kept apart from the seam's ``RelatedQuery``
    /// so that `relatedWhere` compares by meaning like `where` (``AttributeFilter``): two requests of a task
    /// that ask for the same related records share a run however they spell the clause, and requests that
    /// differ in any related member never do (the whole spec is the run-sharing fingerprint).
    struct RelatedSpec: Sendable, Hashable {
        var relationship: RelationshipReference
        /// `relatedWhere`: ``AttributeFilter/all`` without one.
        var filter: AttributeFilter = .all
        /// `relatedOutFields`; `["*"]` for all.
        var outFields: [String] = ["*"]
        /// `relatedOrderBy`; empty for the related table's object id order.
        var orderBy: [OrderTerm] = []

        /// The query for the feature-service seam.
        var query: RelatedQuery {
            RelatedQuery(relationship: relationship, whereClause: filter.whereClause, outFields: outFields, orderBy: orderBy)
        }
    }
}
