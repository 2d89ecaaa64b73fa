package import FeatureService
import QueryLanguage

extension QuerySpec {
    /// The members of `result: related`, as the request gave them. Kept apart from the seam's ``RelatedQuery``
    /// so that `relatedWhere` compares by meaning like `where` (``AttributeFilter``): two requests of a task
    /// that ask for the same related records share a run however they spell the clause, and requests that
    /// differ in any related member never do (the whole spec is the run-sharing fingerprint).
    package struct RelatedSpec: Sendable, Hashable {
        package var relationship: RelationshipReference
        /// `relatedWhere`: ``AttributeFilter/all`` without one.
        package var filter: AttributeFilter = .all
        /// `relatedOutFields`; `["*"]` for all.
        package var outFields: [String] = ["*"]
        /// `relatedOrderBy`; empty for the related table's object id order.
        package var orderBy: [OrderTerm] = []

        /// The query for the feature-service seam.
        package var query: RelatedQuery {
            RelatedQuery(relationship: relationship, whereClause: filter.whereClause, outFields: outFields, orderBy: orderBy)
        }
    }
}
