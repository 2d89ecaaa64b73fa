/// How far a running job is: what the worker's progress events say (docs/contract/README.md, "Progress"), for a
/// job that asked for them with ``QueryJob/progress``.
///
/// Advisory: events may be lost or stop early, and never replace the outcome. Counts only grow.
public struct QueryProgress: Sendable, Hashable {
    /// One layer's progress.
    public struct Layer: Sendable, Hashable {
        /// The layer's URL (an OGC collection's items URL), as in the outcome.
        public var url: String
        /// Pages read so far.
        public var pages: Int
        /// Ids or features received so far.
        public var features: Int
        /// The total the server announced (a count before paging, OGC's `numberMatched`), when it did.
        public var expected: Int?
        /// Whether this layer's reading is over.
        public var done: Bool

        /// A value with these members.
        public init(url: String, pages: Int, features: Int, expected: Int? = nil, done: Bool = false) {
            self.url = url
            self.pages = pages
            self.features = features
            self.expected = expected
            self.done = done
        }
    }

    /// The job's requestId.
    public var requestId: String
    /// Time since the worker started the job.
    public var elapsed: Duration
    /// Per layer.
    public var layers: [Layer]

    /// A value with these members.
    public init(requestId: String, elapsed: Duration, layers: [Layer]) {
        self.requestId = requestId
        self.elapsed = elapsed
        self.layers = layers
    }

    /// Ids or features received so far, over every layer.
    public var features: Int { layers.reduce(0) { $0 + $1.features } }
    /// Pages read so far, over every layer.
    public var pages: Int { layers.reduce(0) { $0 + $1.pages } }
    /// The announced total over every layer, when every layer announced one.
    public var expected: Int? {
        layers.reduce(Optional(0)) { total, layer in total.flatMap { total in layer.expected.map { total + $0 } } }
    }
}
