/// A value kept behind one reference that is never mutated: a copy of a `SharedValue` is one retain, however
/// many strings and arrays the value holds.
///
/// For values that are made once and then handed around many times, such as a request that goes from the
/// decoder to the state machine, its registry, the run and the outcome: a copy of the plain value is a
/// retain per string and array inside it. A change (``change(_:)``) makes a new reference, so copies stay
/// independent values; equality and hashing are the value's (two references to the same storage are equal
/// without comparing it).
///
/// Inlinable so that reading one member through ``value`` compiles to a load from the storage, not a copy of
/// the whole value across the module boundary.
@frozen
package struct SharedValue<Value: Sendable & Hashable>: Sendable, Hashable {
    @usableFromInline
    final class Storage: Sendable {
        @usableFromInline
        let value: Value

        @inlinable
        init(_ value: Value) { self.value = value }
    }

    @usableFromInline
    var storage: Storage

    /// Keeps `value` behind a new reference.
    @inlinable
    package init(_ value: Value) { storage = Storage(value) }

    /// The value.
    @inlinable
    package var value: Value {
        _read { yield storage.value }
    }

    /// Changes the value: `body` changes a copy, which is then kept behind a new reference.
    @inlinable
    package mutating func change(_ body: (inout Value) -> Void) {
        var value = storage.value
        body(&value)
        storage = Storage(value)
    }

    @inlinable
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.value == rhs.storage.value
    }

    @inlinable
    package func hash(into hasher: inout Hasher) { hasher.combine(storage.value) }
}
