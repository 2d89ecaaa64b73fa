import Kafka
import Testing

@testable import QueryWorker

/// Requests whose outcome is in the producer's queue leave the gate's count but hold their offsets.
@Suite("Coordination: outcomes handed to the producer")
struct CoordinationHandOffTests {
    let partition = KafkaTopicPartition(topic: "requests", partition: 0)

    @Test func aHandedOffMessageLeavesTheGateButHoldsTheCommit() {
        var offsets = AssignmentOffsetTracker()
        offsets.assign([partition])
        for offset in Int64(0)..<3 { offsets.received(MessagePosition(partition, offset: offset)) }
        offsets.handedOff(MessagePosition(partition, offset: 0))
        offsets.handedOff(MessagePosition(partition, offset: 1))
        #expect(offsets.inFlight == 3)
        #expect(offsets.active == 1)
        #expect(offsets.done(MessagePosition(partition, offset: 1)) == nil, "offset 0 is still undone")
        #expect(offsets.active == 1)
        #expect(offsets.done(MessagePosition(partition, offset: 0)) == 2)
        #expect(offsets.inFlight == 1)
        #expect(offsets.active == 1)
    }

    @Test func handOffsOfUnknownOrRevokedMessagesAreIgnored() {
        var offsets = AssignmentOffsetTracker()
        offsets.assign([partition])
        offsets.received(MessagePosition(partition, offset: 5))
        offsets.handedOff(MessagePosition(partition, offset: 4))
        offsets.handedOff(MessagePosition(KafkaTopicPartition(topic: "other", partition: 0), offset: 5))
        #expect(offsets.active == 1)
        offsets.handedOff(MessagePosition(partition, offset: 5))
        offsets.handedOff(MessagePosition(partition, offset: 5))
        #expect(offsets.active == 0)
        offsets.revoke([partition])
        #expect(offsets.active == 0 && offsets.inFlight == 0)
    }
}

@Suite("Host policy: cached verdicts")
struct HostVerdictCacheTests {
    @Test func verdictsAreTheSameCachedOrNot() throws {
        let policy = try HostPolicy(allowedHosts: ["gis.example.org"])
        let cache = HostVerdictCache(capacity: 4)
        for _ in 0..<2 {
            #expect(cache.verdict(for: "https://gis.example.org/a/MapServer/0", policy: policy) == nil)
            #expect(cache.verdict(for: "https://evil.example.org/a/MapServer/0", policy: policy)?.code == .hostNotAllowed)
            #expect(cache.verdict(for: "https://u@gis.example.org/a/MapServer/0", policy: policy)?.code == .invalidURL)
        }
        #expect(cache.count == 3)
    }

    @Test func theCacheStaysWithinItsCapacity() throws {
        let policy = try HostPolicy(allowedHosts: ["gis.example.org"])
        let cache = HostVerdictCache(capacity: 8)
        for index in 0..<100 {
            _ = cache.verdict(for: "https://gis.example.org/\(index)/MapServer/0", policy: policy)
            #expect(cache.count <= 8)
        }
    }
}
