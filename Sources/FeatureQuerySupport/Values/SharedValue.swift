/// A value kept behind one reference, copied on write: a copy of a `SharedValue` is one retain, however many
/// strings and arrays the value holds.
///
/// For values that are made once and then handed around many times, such as a request that goes from the
/// decoder to the state machine, its registry, the run and the outcome, or an HTTP request on its way to
/// libcurl: a copy of the plain value is a retain per string and array inside it. A change (``change(_:)``)
/// changes the value in place when this is its only reference, and otherwise a copy behind a new reference,
/// so copies stay independent values (as `Array` does). Equality and hashing are the value's; two references
/// to the same storage are equal without comparing it.
///
/// Inlinable so that reading one member through ``value`` compiles to a load from the storage, not a copy of
/// the whole value across the module boundary.
@frozen
package struct SharedValue<Value: Sendable>: Sendable {
    /// The storage. Mutated only by ``SharedValue/change(_:)`` while uniquely referenced, that is by its only
    /// owner: no other reference, so no other thread, can see the change (the same rule as `Array`'s buffer).
    @usableFromInline
    final class Storage: @unchecked Sendable {
        @usableFromInline
        var value: Value

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

    /// Changes the value: in place when this is the storage's only reference, otherwise a copy that is then
    /// kept behind a new reference.
    @inlinable
    package mutating func change(_ body: (inout Value) -> Void) {
        if isKnownUniquelyReferenced(&storage) {
            body(&storage.value)
        } else {
            var value = storage.value
            body(&value)
            storage = Storage(value)
        }
    }
}

extension SharedValue: Equatable where Value: Equatable {
    @inlinable
    package static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.storage === rhs.storage || lhs.storage.value == rhs.storage.value
    }
}

extension SharedValue: Hashable where Value: Hashable {
    @inlinable
    package func hash(into hasher: inout Hasher) { hasher.combine(storage.value) }
}
