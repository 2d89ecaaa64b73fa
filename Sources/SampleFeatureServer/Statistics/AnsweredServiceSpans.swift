/// When each answered service request began and ended, in the order the server saw those events: what tells a
/// test how many requests a client had at the server at once, without counting one the client had already left.
///
/// A running count cannot: a client that gives up on a request (a timeout) closes its connection and may send
/// its next request at once, and the server learns of the departure only when it next reads that connection,
/// possibly after the next request began (on a loaded machine, on another event loop). Counted until then, the
/// two overlap, and the count reads above the client's own limit although the client never exceeded it.
///
/// An answered request's span runs from the request being read to its response head being made; the client is
/// waiting for that response the whole time, so answered spans lie within the client's own. Abandoned requests
/// are left out: their end, from the client's side, is unknown. Positions are event numbers (one counter for
/// begins and ends), not times: the same order the running count sees, without ties.
package struct AnsweredServiceSpans: Sendable {
    private var nextEvent = 0
    private var spans: [(began: Int, ended: Int)] = []
    /// The most spans kept; later ones are not recorded (a test's few thousand requests are far below it).
    private let limit: Int

    package init(limit: Int = 200_000) {
        self.limit = max(0, limit)
    }

    /// A service request began: its event number, to hand back to ``ended(began:answered:)``.
    package mutating func began() -> Int {
        defer { nextEvent += 1 }
        return nextEvent
    }

    /// The request that began at event `began` ended: answered (its response head made, an error response
    /// included), or abandoned by its client.
    package mutating func ended(began: Int, answered: Bool) {
        let event = nextEvent
        nextEvent += 1
        guard answered, spans.count < limit else { return }
        spans.append((began, event))
    }

    /// Forgets the spans recorded so far; event numbers go on, so a request that began before and ends after is
    /// still one span.
    package mutating func forgetSpans() {
        spans.removeAll()
    }

    /// The most answered requests that were in progress at once.
    package var mostAtOnce: Int {
        // +1 at each begin, -1 at each end, in event order (every event number is distinct).
        var changes: [(event: Int, change: Int)] = []
        changes.reserveCapacity(spans.count * 2)
        for span in spans {
            changes.append((span.began, 1))
            changes.append((span.ended, -1))
        }
        changes.sort { $0.event < $1.event }
        var current = 0
        var most = 0
        for change in changes {
            current += change.change
            most = max(most, current)
        }
        return most
    }
}
