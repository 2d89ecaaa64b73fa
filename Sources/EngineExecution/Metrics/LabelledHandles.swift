import Synchronization

/// The handles of a labelled metric family, made once per key (a tuple of label values) and kept: the hot
/// path looks a handle up under one lock instead of making a metric (which registers a series) or formatting
/// labels each time.
///
/// Keys must be bounded (hosts, status codes, credential names): every key's handles live as long as this.
package final class LabelledHandles<Key: Hashable & Sendable, Handles: Sendable>: Sendable {
    private let handles = Mutex<[Key: Handles]>([:])
    private let make: @Sendable (Key) -> Handles

    /// `make` creates the handles of a key seen for the first time (it runs under the lock, once per key).
    package init(_ make: @escaping @Sendable (Key) -> Handles) {
        self.make = make
    }

    /// The handles of `key`, made on first use.
    package subscript(_ key: Key) -> Handles {
        handles.withLock { handles in
            if let existing = handles[key] { return existing }
            let made = make(key)
            handles[key] = made
            return made
        }
    }

    /// Removes and returns the handles of every key `shouldRemove` accepts (for series that must disappear,
    /// such as a revoked partition's lag).
    package func removeAll(where shouldRemove: (Key) -> Bool) -> [Handles] {
        handles.withLock { handles in
            let gone = handles.filter { shouldRemove($0.key) }
            for key in gone.keys { handles[key] = nil }
            return Array(gone.values)
        }
    }
}
