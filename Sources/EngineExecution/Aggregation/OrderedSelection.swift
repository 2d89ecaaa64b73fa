package import FeatureService
package import QueryLanguage

/// The first `limit` items of a selection in `orderBy` order, exactly, from items streamed in any order: what
/// "the first N features by this order" means when the service cannot order, or ordered pages cannot be trusted.
///
/// With a limit, only the best `limit` items are held (a bounded max-heap whose root is the worst kept item), so
/// memory is O(limit) however large the selection; without one every item is held and sorted at the end. Ties
/// after the last term are broken by `id` ascending (the object id, as `orderBy` promises), then by arrival,
/// so the answer is deterministic even with repeated ids.
package struct OrderedSelection<ID: Comparable, Item> {
    fileprivate struct Entry {
        var key: [AttributeValue]
        var id: ID
        var arrival: Int
        var item: Item
    }

    package let order: AttributeOrder
    package let limit: Int?
    /// Items offered so far, kept or not.
    package private(set) var addedCount = 0
    private var entries: [Entry] = []

    /// `limit` below zero is read as zero; `nil` keeps everything.
    package init(orderBy: [OrderTerm], limit: Int?) {
        self.order = AttributeOrder(orderBy)
        self.limit = limit.map { max(0, $0) }
    }

    /// How many items are held now (at most `limit`).
    package var heldCount: Int { entries.count }

    /// Offers one item; `key[i]` is its value of `orderBy[i].field`.
    package mutating func add(key: [AttributeValue], id: ID, item: Item) {
        let entry = Entry(key: key, id: id, arrival: addedCount, item: item)
        addedCount += 1
        guard let limit else {
            entries.append(entry)
            return
        }
        if entries.count < limit {
            entries.append(entry)
            siftUp(from: entries.count - 1)
        } else if let worst = entries.first, precedes(entry, worst) {
            entries[0] = entry
            siftDown(from: 0)
        }
    }

    /// The held items, best first. The selection is left empty.
    package mutating func finish() -> [Item] {
        var sorted = entries
        entries = []
        sorted.sort { precedes($0, $1) }
        return sorted.map(\.item)
    }

    private func precedes(_ a: Entry, _ b: Entry) -> Bool {
        let result = order.compare(a.key, id: a.id, b.key, id: b.id)
        return result != 0 ? result < 0 : a.arrival < b.arrival
    }

    // The heap keeps the worst entry at the root: a parent never precedes its children.

    private mutating func siftUp(from start: Int) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard precedes(entries[parent], entries[child]) else { return }
            entries.swapAt(parent, child)
            child = parent
        }
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        while true {
            var worst = parent
            let left = 2 * parent + 1
            let right = left + 1
            if left < entries.count, precedes(entries[worst], entries[left]) { worst = left }
            if right < entries.count, precedes(entries[worst], entries[right]) { worst = right }
            if worst == parent { return }
            entries.swapAt(parent, worst)
            parent = worst
        }
    }
}

extension OrderedSelection: Sendable where ID: Sendable, Item: Sendable {}
extension OrderedSelection.Entry: Sendable where ID: Sendable, Item: Sendable {}
