package import QueryLanguage

/// Which relationship of a layer `result: related` follows. A name is resolved from the layer's metadata on
/// every query: relationship ids differ between deployments of the same service, names do not.
package enum RelationshipReference: Sendable, Hashable, CustomStringConvertible {
    case name(String)
    case id(Int)

    package var description: String {
        switch self {
        case .name(let name): "relationship \"\(name)\""
        case .id(let id): "relationship id \(id)"
        }
    }
}

/// What `result: related` asks of the related table: the query's own selection (where, extent, geometry,
/// objectIds, time) picks the origin features, this picks and shapes their related records.
package struct RelatedQuery: Sendable, Hashable {
    package var relationship: RelationshipReference
    /// A filter on the related table's fields (`relatedWhere`); `nil` for every related record.
    package var whereClause: WhereClause?
    /// The related table's fields each record carries; `["*"]` for all.
    package var outFields: [String]
    /// The order of each origin's records; empty for the related table's object id order.
    package var orderBy: [OrderTerm]

    package init(
        relationship: RelationshipReference, whereClause: WhereClause? = nil, outFields: [String] = ["*"],
        orderBy: [OrderTerm] = []
    ) {
        self.relationship = relationship
        self.whereClause = whereClause
        self.outFields = outFields
        self.orderBy = orderBy
    }
}

/// One origin feature's related records, as a result carries them.
package struct RelatedRecordGroup: Sendable {
    /// The origin feature's object id.
    package var objectId: Int64
    /// Each record as the JSON object a result publishes, `{"attributes":{...}}` with `"geometry"` (GeoJSON)
    /// when the related table has geometry and the query asked for it; in the query's `relatedOrderBy`, ties
    /// (and every record without one) by the related table's object id.
    package var records: [[UInt8]]
    /// How many related records the origin has; more than `records.count` when `maxFeatures` or the result
    /// budget cut the group.
    package var count: Int

    package init(objectId: Int64, records: [[UInt8]], count: Int) {
        self.objectId = objectId
        self.records = records
        self.count = count
    }
}

/// `result: related` of one layer: the related table followed and the origins' groups, in origin object id
/// order; origins without a related record are omitted.
package struct RelatedSelection: Sendable {
    /// The related table's (or layer's) URL.
    package var relatedTable: String
    package var groups: [RelatedRecordGroup]

    package init(relatedTable: String, groups: [RelatedRecordGroup]) {
        self.relatedTable = relatedTable
        self.groups = groups
    }

    /// How many records the groups hold.
    package var recordCount: Int { groups.reduce(0) { $0 + $1.records.count } }
}

/// One attachment of a feature, as a result carries it.
package struct AttachmentInfo: Sendable, Hashable {
    package var id: Int64
    package var name: String
    package var contentType: String
    /// Bytes.
    package var size: Int64
    package var keywords: String
    /// Where a client fetches the attachment: `<layer>/<objectId>/attachments/<id>`, never with a token in
    /// it (a client brings its own credentials).
    package var url: String

    package init(id: Int64, name: String, contentType: String, size: Int64, keywords: String, url: String) {
        self.id = id
        self.name = name
        self.contentType = contentType
        self.size = size
        self.keywords = keywords
        self.url = url
    }
}

/// One selected feature's attachments, ascending by attachment id.
package struct AttachmentGroup: Sendable, Hashable {
    /// The feature's object id.
    package var objectId: Int64
    package var attachments: [AttachmentInfo]

    package init(objectId: Int64, attachments: [AttachmentInfo]) {
        self.objectId = objectId
        self.attachments = attachments
    }
}

/// A relationship as a layer advertises it (`relationships` in its metadata), for catalogs and for resolving
/// ``RelationshipReference``.
package struct LayerRelationship: Sendable, Hashable {
    package var id: Int
    package var name: String
    package var relatedTableId: Int
    /// `esriRelCardinalityOneToOne`, `...OneToMany`, `...ManyToMany`.
    package var cardinality: String
    /// `esriRelRoleOrigin` or `esriRelRoleDestination`.
    package var role: String
    /// The field of this layer that holds the key the relationship joins on.
    package var keyField: String?

    package init(id: Int, name: String, relatedTableId: Int, cardinality: String, role: String, keyField: String?) {
        self.id = id
        self.name = name
        self.relatedTableId = relatedTableId
        self.cardinality = cardinality
        self.role = role
        self.keyField = keyField
    }
}
