public import Foundation

extension QueryOutcome {
    /// One layer's (or catalog target's) entry of a result.
    public struct LayerResult: Sendable {
        /// The normalised layer URL (`{landing}/collections/{id}` for OGC), unique in a result.
        public var url: String
        /// The ArcGIS layer id.
        public var layerId: Int?
        /// The OGC collection id.
        public var collection: String?
        /// The layer's name (ArcGIS).
        public var name: String?
        /// Whether this layer succeeded; a failed layer of a `partial` result has ``error``.
        public var succeeded: Bool
        /// How many features match, as the service counted them.
        public var count: Int?
        /// True when the entry holds every match.
        public var complete: Bool?
        /// Why the entry is not complete (`maxFeatures`, the result budget, …).
        public var incompleteReason: String?
        /// ArcGIS object ids (`ids`, `features`), ascending unless ordered.
        public var objectIds: [Int64]?
        /// OGC feature ids (`ids`, `features`).
        public var featureIds: [Query.FeatureID]?
        /// `statistics`: one row per group.
        public var statistics: [StatisticsRow]?
        /// `extent`: the selection's box, `nil` for an empty selection.
        public var extent: Query.Extent?
        /// `distinct`: the distinct combinations of the out fields.
        public var distinct: [[String: FieldValue]]?
        /// `related`: each selected feature's related records.
        public var related: [RelatedRecords]?
        /// `attachments`: each selected feature's attachments.
        public var attachments: [Attachments]?
        /// `features`: a GeoJSON FeatureCollection (WGS 84, in the order of ``objectIds``), as JSON text.
        public var featureCollection: Data?
        /// The layer's error when it failed.
        public var error: FeatureQueryError?
        /// Where the layer's features or ids are when the worker stored them (contract 1.3) instead of putting
        /// them in ``featureCollection``, ``objectIds`` or ``featureIds``: fetch them with
        /// ``FeatureQueryClient/storedFeatures(of:)`` or ``FeatureQueryClient/resolvingStoredLayers(of:maxBytes:)``.
        public var location: StoredResultLocation?
    }

    /// A value of an attribute, a group field or a statistic.
    public enum FieldValue: Sendable, Hashable {
        case null
        case integer(Int64)
        case number(Double)
        case string(String)
        case bool(Bool)
    }

    /// A statistics row: the group's field values (empty without `groupBy`) and the statistics by name.
    public struct StatisticsRow: Sendable, Hashable {
        public var group: [String: FieldValue]
        public var values: [String: FieldValue]

        /// A value with these members.
        public init(group: [String: FieldValue], values: [String: FieldValue]) {
            (self.group, self.values) = (group, values)
        }
    }

    /// One feature's related records.
    public struct RelatedRecords: Sendable, Hashable {
        public var objectId: Int64
        public var count: Int
        /// Each record's attributes.
        public var records: [[String: FieldValue]]
    }

    /// One feature's attachments.
    public struct Attachments: Sendable, Hashable {
        public var objectId: Int64
        public var attachments: [Attachment]
    }

    /// An attachment: what a client needs to fetch it (never with a token in the URL).
    public struct Attachment: Sendable, Hashable {
        public var id: Int64
        public var name: String
        public var contentType: String
        public var size: Int64
        public var url: String
    }
}
