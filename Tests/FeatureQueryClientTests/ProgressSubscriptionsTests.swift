@testable import FeatureQueryClient
import Testing

/// Who hears which job's progress, without Kafka: numbers stand for the streams.
@Suite struct ProgressSubscriptionsTests {
    @Test func eachJobsListenersHearItsEventsUntilItsCallEnds() {
        var subscriptions = ProgressSubscriptions<String>()
        #expect(subscriptions.isEmpty)
        let first = subscriptions.add("a1", for: "a")
        _ = subscriptions.add("a2", for: "a")
        _ = subscriptions.add("b1", for: "b")
        #expect(Set(subscriptions.listeners(of: "a")) == ["a1", "a2"])
        #expect(subscriptions.listeners(of: "c").isEmpty)
        subscriptions.remove(first, for: "a")
        #expect(subscriptions.listeners(of: "a") == ["a2"])
        #expect(subscriptions.end("a") == ["a2"])
        #expect(subscriptions.listeners(of: "a").isEmpty)
        #expect(subscriptions.endAll() == ["b1"])
        #expect(subscriptions.isEmpty)
    }

    @Test func aProgressMessageIsReadAndAnythingElseSkipped() throws {
        let value = Array(#"""
            {"kind":"progress","requestId":"r","taskId":"t","worker":"w","at":"2026-12-06T05:00:00Z","elapsedMs":2500,
             "layers":[{"url":"http://h/0","pages":3,"features":6000,"expected":10000,"done":false},
                       {"url":"http://h/1","pages":1,"features":10,"done":true}]}
            """#.utf8)
        let progress = try #require(QueryProgress(message: value))
        #expect(progress.requestId == "r")
        #expect(progress.elapsed == .milliseconds(2500))
        #expect(progress.features == 6010 && progress.pages == 4)
        #expect(progress.expected == nil, "one layer announced no total")
        #expect(progress.layers.first == QueryProgress.Layer(url: "http://h/0", pages: 3, features: 6000, expected: 10000))
        #expect(QueryProgress(message: Array(#"{"requestId":"r","status":"succeeded","kind":"result"}"#.utf8)) == nil)
        #expect(QueryProgress(message: Array("not json".utf8)) == nil)
    }
}
