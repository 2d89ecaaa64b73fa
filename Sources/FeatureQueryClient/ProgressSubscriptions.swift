/// Who listens to which job's progress: the streams ``FeatureQueryClient/progress(of:)`` handed out, by requestId.
///
/// A value type without I/O, generic over the listener (a stream's continuation in the client, a number in
/// tests); the client keeps it in a lock and yields and finishes outside it.
struct ProgressSubscriptions<Listener> {
    private var listeners: [String: [Int: Listener]] = [:]
    private var nextID = 0

    /// Whether nobody listens to anything: progress messages are then skipped unparsed.
    var isEmpty: Bool { listeners.isEmpty }

    /// Adds a listener for `requestId`; the id removes it again.
    mutating func add(_ listener: Listener, for requestId: String) -> Int {
        nextID += 1
        listeners[requestId, default: [:]][nextID] = listener
        return nextID
    }

    /// Removes one listener (its stream ended: the caller stopped iterating).
    mutating func remove(_ id: Int, for requestId: String) {
        listeners[requestId]?[id] = nil
        if listeners[requestId]?.isEmpty == true { listeners[requestId] = nil }
    }

    /// The listeners of `requestId`, to hand an event.
    func listeners(of requestId: String) -> [Listener] {
        listeners[requestId].map { Array($0.values) } ?? []
    }

    /// Removes and returns `requestId`'s listeners, to finish: its call ended.
    mutating func end(_ requestId: String) -> [Listener] {
        listeners.removeValue(forKey: requestId).map { Array($0.values) } ?? []
    }

    /// Removes and returns every listener: the client stopped.
    mutating func endAll() -> [Listener] {
        defer { listeners = [:] }
        return listeners.values.flatMap(\.values)
    }
}
