import Authentication
import Kafka
import SampleFeatureServer

/// The demo's secured phase: a 100,000-feature download that outlives its 7-second token, and
/// 50 requests meeting a revoked token, each checked against ground truth, with the token calls the server
/// counted: one token each (a generateToken and the exchange for the server, see ``calls(_:)``).
///
/// The server is a portal; its `Secured` folder serves the same layers behind a token. Its tokens live seven
/// seconds, and it reports their expiry an hour late (the sample server's clock-skew knob): the worker can't
/// refresh them early, so the expiry reaches it as 498s in the middle of the download, the case the worker
/// must get right (one refresh, the rejected pages asked once more, nothing restarted, lost or duplicated).
struct DemoSecuredPhase {
    let plan: SecuredPlan
    let server: SampleFeatureServer
    let authority: SampleTokenAuthority
    let producer: KafkaProducer
    let topic: String

    /// How long the server holds each query of the secured parcels layer during the download. The worker
    /// sends at most 16 requests to a host at once: 4 counts, then 52 pages in 4 waves of 16, each wave
    /// taking this long, so the waves are sent at 0, 2, 4, 6 and 8 s after the token was minted (just before):
    /// the 7-second token is valid when the fourth wave is sent and expired when the fifth is, a second from
    /// either edge. (Until 2026-12 the token lived a minute and each page was held 13 s: the demo took 87 s.)
    static let downloadLatencyMs = 2_000
    /// The server's token lifetime.
    static let tokenLifetimeSeconds = 7
    /// The worker's default `freshTokenWindow` (``TokenRefreshPolicy``), which the revocation waits out.
    static let freshTokenWindow = TokenRefreshPolicy().freshTokenWindow
    /// How late the server reports each token's expiry.
    static let reportedExpiryLateSeconds = 3_600

    /// The knobs the portal starts with.
    static var knobs: SampleSecurityKnobs {
        var knobs = SampleSecurityKnobs()
        knobs.tokenLifetimeSeconds = tokenLifetimeSeconds
        knobs.clockSkewSeconds = reportedExpiryLateSeconds
        return knobs
    }

    func play(into report: inout DemoReport, from stream: inout OutcomeStream) async throws {
        let clock = ContinuousClock()
        printLine("")
        printLine(
            "Secured: the same parcels in the portal's Secured folder, credential \"\(DemoCredentials.name)\" (kind token, "
                + "its password in a 0600 file); tokens live \(Self.tokenLifetimeSeconds) s and the portal reports their expiry "
                + "an hour late, so the worker meets the expiry as 498s:")
        authority.resetCounters()
        let minted = clock.now
        try await DemoStack.send([plan.firstToken], with: producer, topic: topic)
        try await report.collect([plan.firstToken], from: &stream)
        let first = authority.counters
        printLine("        first token: \(Self.calls(first))")
        report.check(Self.isOneToken(first), plan.firstToken.requestId, Self.notOneToken(first))

        try await download(into: &report, from: &stream, clock: clock)

        // The token the worker got when the first one expired must be older than the worker's fresh-token window
        // before it is revoked: a token that replaced a rejected one and is itself rejected within that window is
        // taken for a refused credential (issue 33 tells expiry from refusal). It was got at the latest when the
        // download's last wave came back rejected.
        let refreshedBy = minted + .seconds(Self.tokenLifetimeSeconds) + .milliseconds(2 * Self.downloadLatencyMs)
        try await Task.sleep(until: refreshedBy + Self.freshTokenWindow, clock: clock)
        authority.revokeAllTokens()
        authority.resetCounters()
        printLine("")
        printLine("Every token revoked at the server, then \(plan.revoked.count) requests at once on the secured parcels:")
        let started = clock.now
        try await DemoStack.send(plan.revoked, with: producer, topic: topic)
        try await report.collect(plan.revoked, from: &stream, eachLine: false)
        let revoked = authority.counters
        printLine(
            "        \(Self.calls(revoked)); \(revoked.rejected(498)) requests answered 498 and asked once more; "
                + "all done in \(DemoCommand.seconds(clock.now - started))")
        report.check(Self.isOneToken(revoked), "secured/revoked-*", Self.notOneToken(revoked))
        report.check(revoked.rejected(498) >= 1, "secured/revoked-*", "no request met the revoked token")
    }

    /// The download: the latency on, the parts sent at once, then what the server saw.
    private func download(into report: inout DemoReport, from stream: inout OutcomeStream, clock: ContinuousClock) async throws {
        printLine("")
        printLine(
            "\(OutcomeText.grouped(DemoPlan.downloadFeatures)) features (OBJECTID only) in \(plan.download.count) requests at once, "
                + "each page held \(Self.downloadLatencyMs / 1_000) s by the server, outliving the token:")
        server.resetStatistics()
        authority.resetCounters()
        server.setFaults([FaultRule(.latency(milliseconds: Self.downloadLatencyMs), pathContains: Self.securedQueryPath)])
        let started = clock.now
        try await DemoStack.send(plan.download, with: producer, topic: topic)
        try await report.collect(plan.download, from: &stream)
        server.setFaults([])
        let counters = authority.counters
        let tally = PageTally(server.statistics.recentRequests.filter { $0.path.hasSuffix(Self.securedQueryPath) })
        let rejected = counters.rejected(498)
        printLine(
            "        \(Self.calls(counters)); \(rejected) requests answered 498 after the expiry, each asked once more; "
                + "\(tally.asked) queries sent for \(tally.distinct) different ones, \(tally.firstPages) first pages; "
                + "\(DemoCommand.seconds(clock.now - started))")
        let subject = "secured/download-*"
        report.check(Self.isOneToken(counters), subject, Self.notOneToken(counters))
        report.check(rejected >= 1, subject, "no request met the expired token: the download ended before it expired")
        report.check(tally.asked - tally.distinct == rejected, subject, "\(tally.asked - tally.distinct) queries repeated, but \(rejected) 498s")
        report.check(tally.mostAsked <= 2, subject, "a query was sent \(tally.mostAsked) times")
        report.check(tally.firstPages == plan.download.count, subject, "first pages asked \(tally.firstPages) times: a run restarted")
    }

    /// `/Secured/LA_County_Parcels/FeatureServer/0/query`: the secured layer's query path, and only its.
    static var securedQueryPath: String { "/Secured/\(SampleLayer.parcels.path)/query" }

    /// `1 token (generateToken 1, exchange 1)`. The portal's own `/arcgis` names the portal as its owner, so
    /// the worker treats it as a federated server: each token is a portal token (generateToken) exchanged for
    /// the server's (exchange), two calls to the portal for one token.
    private static func calls(_ counters: SampleSecurityCounters) -> String {
        let tokens = counters.generateToken + counters.serverGenerateToken
        return "\(tokens) token\(tokens == 1 ? "" : "s") obtained (token calls: generateToken \(counters.generateToken), "
            + "exchange \(counters.exchange))"
    }

    /// One token obtained: one sign-in with the password, and at most the one exchange that follows it.
    private static func isOneToken(_ counters: SampleSecurityCounters) -> Bool {
        counters.generateToken + counters.serverGenerateToken == 1 && counters.exchange <= 1 && counters.oauthToken.isEmpty
    }

    private static func notOneToken(_ counters: SampleSecurityCounters) -> String {
        "\(counters.tokenCalls) token calls (generateToken \(counters.generateToken), exchange \(counters.exchange)), "
            + "expected one token: one generateToken and its exchange"
    }
}

/// The secured layer's query requests as the server logged them: repeats are found by their parameters
/// (a retried page is the same request again; the token travels in a header, not among them).
struct PageTally {
    /// Query requests received.
    var asked = 0
    /// Different queries among them.
    var distinct = 0
    /// The most times one query was received.
    var mostAsked = 0
    /// Requests for a first page (`resultOffset=0`).
    var firstPages = 0

    init(_ requests: [RecordedRequest]) {
        var times: [[String]: Int] = [:]
        for request in requests {
            let identity = request.parameters.map { "\($0.name)=\($0.value)" }.sorted()
            times[identity, default: 0] += 1
            if request.parameter("resultOffset") == "0" { firstPages += 1 }
        }
        asked = requests.count
        distinct = times.count
        mostAsked = times.values.max() ?? 0
    }
}
