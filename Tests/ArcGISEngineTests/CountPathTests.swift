import EngineExecution
import EngineTestSupport
import FeatureGeometry
import FeatureQuerySupport
import QueryLanguage
import Testing
import FeatureService

@testable import ArcGISEngine

/// The count query's one-pass request building and its shortcuts around `async` calls, each against what it
/// replaced: the envelope's bytes against `EsriJSON` and the reference form encoding, a count request's buffer
/// against the fields appended one by one, the credentials known at once against the `async` answers.
@Suite("Count query path keeps its requests")
struct CountPathTests {
    /// Coordinates that take every form Swift's shortest text has: integral, fractional, exponents both ways,
    /// negative zero, the extremes.
    static let special: [Double] = [
        0, -0.0, 1, -1, 0.5, -118.805, 34.03, -13_223_962, 4_030_690.25, 1e21, 1e22, -1.5e300, .leastNonzeroMagnitude, 1e-7,
        123_456_789_012_345_680, .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude, 0.1 + 0.2,
    ]

    static func coordinate(_ random: inout SplitMix64) -> Double {
        switch random.next() % 4 {
        case 0: return special[Int(random.next() % UInt64(special.count))]
        case 1: return Double(Int64(bitPattern: random.next()) % 40_000_000) / 1_000
        case 2: return Double(Int64(bitPattern: random.next()) % 20_000_000)
        default:
            let value = Double(bitPattern: random.next())
            return value.isFinite ? value : 7
        }
    }

    static func spatialReference(_ random: inout SplitMix64) -> SpatialReference? {
        switch random.next() % 3 {
        case 0: nil
        case 1: SpatialReference(wkid: [3857, 4326, 2229, -1][Int(random.next() % 4)])
        default: SpatialReference(wkid: 102_100, latestWkid: 3857)
        }
    }

    @Test("An envelope's form bytes are EsriJSON's text, form-encoded")
    func envelopeBytesMatchEsriJSON() throws {
        var random = SplitMix64(seed: 41)
        for _ in 0..<5_000 {
            let envelope = Envelope(
                xmin: Self.coordinate(&random), ymin: Self.coordinate(&random), xmax: Self.coordinate(&random),
                ymax: Self.coordinate(&random), spatialReference: Self.spatialReference(&random))
            var bytes: [UInt8] = Array("x=".utf8)
            #expect(FormBytes.appendEnvelopeJSON(envelope, to: &bytes))
            let expected = "x=" + ReferenceURLs.formEncode(try EsriJSON.encode(.envelope(envelope)))
            #expect(String(decoding: bytes, as: UTF8.self) == expected)
        }
        var bytes: [UInt8] = []
        let infinite = Envelope(xmin: 0, ymin: 0, xmax: .infinity, ymax: 1, spatialReference: nil)
        #expect(!FormBytes.appendEnvelopeJSON(infinite, to: &bytes))
        #expect(bytes.isEmpty)
    }

    @Test("Integers are written as String(_:) writes them")
    func integersMatchString() {
        var random = SplitMix64(seed: 43)
        let values = [0, 1, -1, 9, 10, 99, 100, 3857, 102_100, -4326, Int.max, Int.min] + (0..<2_000).map { _ in
            Int(truncatingIfNeeded: random.next()) >> Int(random.next() % 64)
        }
        for value in values {
            var bytes: [UInt8] = []
            FormBytes.appendInteger(value, to: &bytes)
            #expect(String(decoding: bytes, as: UTF8.self) == String(value))
        }
    }

    @Test("A count request's one buffer holds the fields appended one by one, for every geometry and clause")
    func countParametersMatchReference() throws {
        let layer = PreparedClausesTests.layer()
        let envelope = PreparedClausesTests.envelope
        let polygon = Geometry.polygon(Polygon(
            rings: [[Position(x: 0, y: 0), Position(x: 1, y: 0), Position(x: 1, y: 1), Position(x: 0, y: 0)]],
            spatialReference: SpatialReference(wkid: 4326)))
        let geometries: [Geometry?] = [nil, .envelope(envelope), polygon]
        let clauses = [nil, "UseType = 'Residential'", "usetype = 'A&B' AND objectid > 10"]
        for geometry in geometries {
            for clause in clauses {
                let query = ServiceQuery(
                    whereClause: try clause.map { try WhereClause($0) }, geometry: geometry, spatialRelationship: .contains,
                    result: .count)
                let clause = try QueryCheck.check(query, for: layer)
                #expect(clause.validated == (try QueryCheck.validated(query, for: layer).whereClause))
                var fields = [("f", "json"), ("where", clause.validated?.arcGISSQL ?? "1=1")]
                if let geometry {
                    fields += [
                        ("geometry", try EsriJSON.encode(geometry)), ("geometryType", geometry.type.esriName),
                        ("inSR", String(geometry.spatialReference?.wkid ?? 0)), ("spatialRel", "esriSpatialRelContains"),
                    ]
                }
                let count = try QueryParameters.countOnly(query, clause: clause, layer: layer)
                #expect(count.encoded == ReferenceURLs.encoded(fields + [("returnCountOnly", "true")]))
                #expect(try QueryParameters.base(query, clause: clause, layer: layer).encoded == ReferenceURLs.encoded(fields))
                // Without the check's encoding (a clause not cached), the clause is written from its tree.
                let unencoded = CheckedClause(validated: clause.validated, encoded: nil)
                #expect(try QueryParameters.base(query, clause: unencoded, layer: layer).encoded == ReferenceURLs.encoded(fields))
            }
        }
    }

    @Test("A geometry EsriJSON cannot write fails the query as before")
    func unwritableGeometryFails() {
        let layer = PreparedClausesTests.layer()
        var envelope = Envelope(xmin: 0, ymin: 0, xmax: 1, ymax: 1, spatialReference: nil)
        envelope.xmax = .nan  // after init, which would order the NaN away
        let query = ServiceQuery(geometry: .envelope(envelope), result: .count)
        #expect {
            _ = try QueryParameters.countOnly(query, clause: CheckedClause(validated: nil, encoded: nil), layer: layer)
        } throws: { error in
            guard let error = error as? FeatureServiceError else { return false }
            return error.code == .invalidQuery && error.message.hasPrefix("the query geometry cannot be sent to \(layer.url): ")
        }
    }

    @Test("Credentials known at once give the cache key and the answer the async path gives")
    func immediateCredentials() async throws {
        let url = "http://h/arcgis/rest/services/LA/FeatureServer/0"
        for credential in [nil, "named"] as [String?] {
            let auth = QueryAuthentication(NoAuthentication(), credential: credential, redactor: ParameterRedactor())
            #expect(auth.immediateCacheKey(url, for: url) == (try await auth.cacheKey(url, for: url)))
            if credential == nil {
                #expect(auth.immediateAuthentication(for: url) == (try await auth.authentication(for: url)))
            } else {
                // A picked credential NoAuthentication does not know fails on the async path, as before.
                #expect(auth.immediateAuthentication(for: url) == nil)
                await #expect(throws: AuthenticationFailure.self) { try await auth.authentication(for: url) }
            }
        }
        // An authenticator that does not answer at once is asked, as before.
        let asked = QueryAuthentication(TestAuthenticator(), credential: nil, redactor: ParameterRedactor())
        #expect(asked.immediateAuthentication(for: url) == nil)
        #expect(asked.immediateCacheKey(url, for: url) == nil)
    }
}
