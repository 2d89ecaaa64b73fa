extension Query {
    /// `{xmin, ymin, xmax, ymax, spatialReference: {wkid}}`; wkid 4326 unless given.
    public struct Extent: Sendable, Hashable {
        /// West, south, east and north edges, in ``wkid``'s units.
        public var xmin: Double
        public var ymin: Double
        public var xmax: Double
        public var ymax: Double
        public var wkid: Int

        /// A value with these members.
        public init(xmin: Double, ymin: Double, xmax: Double, ymax: Double, wkid: Int = 4326) {
            (self.xmin, self.ymin, self.xmax, self.ymax, self.wkid) = (xmin, ymin, xmax, ymax, wkid)
        }
    }

    /// How the extent or geometry relates to a selected feature.
    public enum SpatialRelationship: String, Sendable, Hashable {
        case intersects, contains, within, envelopeIntersects
    }

    /// What the outcome holds per layer.
    public enum ResultKind: String, Sendable, Hashable {
        case ids, count, features, catalog, statistics, extent, distinct, related, attachments
    }

    /// A feature id: ArcGIS object ids are integers, OGC feature ids integers or strings (`1` and `"1"` differ).
    public enum FeatureID: Sendable, Hashable {
        case integer(Int64)
        case string(String)
    }

    /// A time window; either bound may be open (`nil`), not both. RFC 3339 date-times with a zone.
    public struct TimeWindow: Sendable, Hashable {
        public var start: String?
        public var end: String?
        /// A value with these members.
        public init(start: String?, end: String?) { (self.start, self.end) = (start, end) }
    }

    /// A field to order by.
    public struct Order: Sendable, Hashable {
        public var field: String
        public var descending: Bool
        /// A value with these members.
        public init(_ field: String, descending: Bool = false) { (self.field, self.descending) = (field, descending) }
    }

    /// One statistic of ``ResultKind/statistics``: `type` is `count`, `sum`, `min`, `max`, `avg`, `stddev`,
    /// `var`, `percentileCont` or `percentileDisc` (the contract's list; the worker's decoder checks it).
    public struct Statistic: Sendable, Hashable {
        public var type: String
        public var field: String
        public var name: String?
        public var percentile: Double?
        /// A value with these members.
        public init(_ type: String, field: String, name: String? = nil, percentile: Double? = nil) {
            (self.type, self.field, self.name, self.percentile) = (type, field, name, percentile)
        }
    }

    /// A layer's relationship, by name or by id.
    public enum Relationship: Sendable, Hashable {
        case name(String)
        case id(Int)
    }
}
