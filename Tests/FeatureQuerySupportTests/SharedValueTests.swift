import Testing
@testable import FeatureQuerySupport

/// `SharedValue` is a value: a change to one copy never shows in another, and equality and hashing are the
/// value's. It changes in place only while it holds the storage's one reference.
@Suite("Shared values")
struct SharedValueTests {
    struct Pair: Sendable, Hashable {
        var name: String
        var items: [Int]
    }

    @Test func aChangedCopyLeavesTheOriginalAsItWas() {
        let original = SharedValue(Pair(name: "a", items: [1, 2]))
        var copy = original
        copy.change { $0.items.append(3) }
        #expect(original.value == Pair(name: "a", items: [1, 2]))
        #expect(copy.value == Pair(name: "a", items: [1, 2, 3]))
        #expect(copy != original)
        #expect(copy.storage !== original.storage)
    }

    @Test func theOnlyReferenceIsChangedInPlace() {
        var only = SharedValue(Pair(name: "a", items: []))
        let before = ObjectIdentifier(only.storage)
        only.change { $0.name = "b" }
        #expect(ObjectIdentifier(only.storage) == before)
        #expect(only.value.name == "b")
    }

    @Test func equalValuesInSeparateStorageAreEqualAndHashAlike() {
        let first = SharedValue(Pair(name: "a", items: [1]))
        let second = SharedValue(Pair(name: "a", items: [1]))
        #expect(first.storage !== second.storage)
        #expect(first == second)
        #expect(first.hashValue == second.hashValue)
        #expect(first != SharedValue(Pair(name: "a", items: [2])))
    }
}
