import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

@Suite("Fault knobs")
struct FaultTests {
    private let count = [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")]

    @Test("latency delays every request it applies to")
    func latency() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.latency(milliseconds: 300), pathContains: "/query")])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let clock = ContinuousClock()
            let slow = try await clock.measure { _ = try await client.get(server.queryURL(.states), count) }
            #expect(try await client.get(server.layerURL(.states), [("f", "json")]).status == 200)
            #expect(slow >= .milliseconds(300))
            // Only the query met the latency; the metadata request did not.
            #expect(server.statistics.faults(.latency) == 1)
            #expect(server.statistics.recentRequests.map(\.faults) == [[.latency], []])
        }
    }

    @Test("HTTP 500 for the first two query requests, then success; metadata untouched")
    func firstTwoFail() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.http500, pathContains: "/query", trigger: .first(2))])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            #expect(try await client.get(server.layerURL(.cities), [("f", "json")]).status == 200)
            let statuses = try await (0..<4).asyncMap { _ in try await client.get(server.queryURL(.cities), count).status }
            #expect(statuses == [500, 500, 200, 200])
            #expect(server.statistics.faults(.http500) == 2)
            let faulted = server.statistics.recentRequests.filter { !$0.faults.isEmpty }
            #expect(faulted.map(\.faults) == [[.http500], [.http500]])
            #expect(server.statistics.queries(.cities) == 2)  // faulted requests never reached the handler
        }
    }

    @Test("HTTP 503 and 429 carry Retry-After")
    func retryAfter() async throws {
        let configuration = SampleServerConfiguration(faults: [
            FaultRule(.http503(retryAfterSeconds: 3), pathContains: "MapServer/0", trigger: .first(1)),
            FaultRule(.http429(retryAfterSeconds: 7), pathContains: "MapServer/0", trigger: .window(skip: 1, count: 1)),
        ])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let unavailable = try await client.get(server.queryURL(.cities), count)
            #expect(unavailable.status == 503)
            #expect(unavailable.headers["Retry-After"] == "3")
            let limited = try await client.get(server.queryURL(.cities), count)
            #expect(limited.status == 429)
            #expect(limited.headers["Retry-After"] == "7")
            #expect(try await client.get(server.queryURL(.cities), count).status == 200)
            #expect(server.statistics.faults(.http503) == 1 && server.statistics.faults(.http429) == 1)
        }
    }

    @Test("a truncated body announces its length and closes the connection halfway")
    func truncatedBody() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.truncatedBody, pathContains: "/query", trigger: .first(1))])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let parameters = [("where", "1=1"), ("outFields", "*"), ("f", "json")]
            await #expect(throws: HTTPError.self) { _ = try await client.get(server.queryURL(.states), parameters) }
            let whole = try await client.get(server.queryURL(.states), parameters)
            #expect(try whole.jsonObject().features.count == 49)
            #expect(server.statistics.faults(.truncatedBody) == 1)
        }
    }

    @Test("an ArcGIS error body with HTTP 200, and an HTML page instead of JSON")
    func wrongBodies() async throws {
        let configuration = SampleServerConfiguration(faults: [
            FaultRule(.arcgisError, pathContains: "USA/MapServer/1", trigger: .first(1)),
            FaultRule(.htmlPage(status: 200), pathContains: "USA/MapServer/2", trigger: .first(1)),
        ])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let error = try await client.get(server.queryURL(.highways), count)
            #expect(error.status == 200)
            let body = try error.jsonObject()
            #expect(body.errorCode == 500)
            #expect(body.error?["message"] as? String == "Error performing query operation")
            let html = try await client.get(server.queryURL(.states), count)
            #expect(html.status == 200)
            #expect(html.headers["Content-Type"]?.hasPrefix("text/html") == true)
            #expect(throws: (any Error).self) { _ = try html.jsonObject() }
            // Other layers were never affected.
            #expect(try await client.query(server, .cities, count).countResult == server.dataset.featureCount(.cities))
        }
    }

    @Test("short pages: fewer features than asked, exceededTransferLimit while more remain")
    func shortPages() async throws {
        let configuration = SampleServerConfiguration(faults: [FaultRule(.shortPages(maximum: 300), pathContains: "/query")])
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let parameters = [("where", "1=1"), ("returnGeometry", "false")]
            let total = server.dataset.featureCount(.counties)
            var ids: [Int] = []
            while true {
                let page = try await client.query(server, .counties, parameters + [("resultOffset", String(ids.count)), ("f", "json")])
                #expect(page.features.count <= 300)
                ids += page.featureIDs
                guard page.exceededTransferLimit == true else { break }
            }
            #expect(ids == Array(1...total))
            let unpaged = try await client.query(server, .counties, parameters + [("f", "json")])
            #expect(unpaged.features.count == 300 && unpaged.exceededTransferLimit == true)
            #expect(server.statistics.faults(.shortPages) > 10)
        }
    }

    @Test("a probability with a seed fails the same requests every run")
    func probability() async throws {
        let rule = FaultRule(.http500, pathContains: "/query", trigger: .probability(0.3, seed: 99))
        func pattern() async throws -> [Int] {
            try await TestSupport.withServer(SampleServerConfiguration(faults: [rule])) { (server, client) async throws in
                try await (0..<40).asyncMap { _ in try await client.get(server.queryURL(.states), [("where", "1=1"), ("returnCountOnly", "true"), ("f", "json")]).status }
            }
        }
        let first = try await pattern()
        let second = try await pattern()
        #expect(first == second)
        let failures = first.filter { $0 == 500 }.count
        #expect(failures > 4 && failures < 24)
    }

    @Test("faults change on a running server")
    func runtimeChanges() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            #expect(try await client.get(server.queryURL(.states), count).status == 200)
            server.setFaults([FaultRule(.http503(retryAfterSeconds: 1))])
            #expect(server.faults.count == 1)
            #expect(try await client.get(server.queryURL(.states), count).status == 503)
            #expect(try await client.get(server.baseURL, [("f", "json")]).status == 503)
            server.setFaults([])
            #expect(try await client.get(server.queryURL(.states), count).status == 200)
            server.addFault(FaultRule(.arcgisError, pathContains: "MapServer/2"))
            #expect(try await client.query(server, .states, count).errorCode == 500)
            #expect(try await client.query(server, .cities, count).countResult != nil)
        }
    }

    @Test("fault specifications as the command line takes them")
    func specifications() throws {
        #expect(try FaultRule(spec: "http503:retry-after=2,path=USA/MapServer/1,first=2")
            == FaultRule(.http503(retryAfterSeconds: 2), pathContains: "USA/MapServer/1", trigger: .first(2)))
        #expect(try FaultRule(spec: "latency:ms=250") == FaultRule(.latency(milliseconds: 250)))
        #expect(try FaultRule(spec: "arcgis-error:probability=0.1,seed=7") == FaultRule(.arcgisError, trigger: .probability(0.1, seed: 7)))
        #expect(try FaultRule(spec: "short-pages:max=500,path=/query") == FaultRule(.shortPages(maximum: 500), pathContains: "/query"))
        #expect(try FaultRule(spec: "truncate:skip=3") == FaultRule(.truncatedBody, trigger: .window(skip: 3, count: nil)))
        #expect(try FaultRule(spec: "html:status=502") == FaultRule(.htmlPage(status: 502)))
        #expect(try FaultRule(spec: "http429") == FaultRule(.http429(retryAfterSeconds: 1)))
        #expect(try FaultRule(spec: "huge-body:mb=100,length=0") == FaultRule(.hugeBody(megabytes: 100, announced: false)))
        #expect(try FaultRule(spec: "huge-body") == FaultRule(.hugeBody(megabytes: 100, announced: true)))
        #expect(throws: FaultSpecError.self) { try FaultRule(spec: "meltdown") }
        #expect(throws: FaultSpecError.self) { try FaultRule(spec: "http500:often=yes") }
        #expect(throws: FaultSpecError.self) { try FaultRule(spec: "http500:probability=2") }
        #expect(throws: FaultSpecError.self) { try FaultRule(spec: "latency:ms=-5") }
    }
}

extension Range where Bound == Int {
    /// Runs `body` for each element in order, awaiting each, and collects the results.
    func asyncMap<T>(_ body: (Int) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await body(element)) }
        return results
    }
}
