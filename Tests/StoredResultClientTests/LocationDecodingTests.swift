import FeatureQueryClient
import Foundation
import Testing

/// A result's `location` as the client reads it: present (every member), absent (an inline layer, as before 1.3),
/// malformed (the whole outcome is a typed `client_malformed_outcome`, never a half-read location).
@Suite struct LocationDecodingTests {
    static let sha = String(repeating: "ab", count: 32)

    static func outcome(_ locationJSON: String?) throws(FeatureQueryError) -> QueryOutcome {
        try QueryOutcome(messages: [Data(OutcomeFixtures.result(locationJSON: locationJSON).utf8)])
    }

    @Test func aLocationIsReadWithEveryMember() throws {
        let json = #"""
            {"url":"s3://results/fq/t-1/r-1/0.ndjson.zst","httpUrl":"https://results.s3.amazonaws.com/fq/t-1/r-1/0.ndjson.zst?X-Amz-Signature=x","expiresAt":"2026-12-06T09:00:00.000Z","bytes":1234,"sha256":"\#(Self.sha)","contentType":"application/x-ndjson","contentEncoding":"zstd","features":2000}
            """#
        let layer = try #require(try Self.outcome(json).layers.first)
        let location = try #require(layer.location)
        #expect(location.url == "s3://results/fq/t-1/r-1/0.ndjson.zst")
        #expect(location.httpURL.hasPrefix("https://results.s3.amazonaws.com/"))
        #expect(location.expiresAt == Date(timeIntervalSince1970: 1_796_547_600))
        #expect(location.bytes == 1234 && location.sha256 == Self.sha)
        #expect(location.contentType == "application/x-ndjson" && location.contentEncoding == "zstd")
        #expect(location.features == 2000 && location.ids == nil && location.count == 2000 && !location.holdsIds)
        #expect(location.format == .ndjson && location.compression == .zstd)
        #expect(layer.featureCollection == nil && layer.objectIds == nil)
    }

    @Test func idsAndNoEncoding() throws {
        let json = #"{"url":"s3://b/k","httpUrl":"http://127.0.0.1:9000/b/k","expiresAt":"2026-12-06T09:00:00Z","bytes":0,"sha256":"\#(Self.sha)","contentType":"application/geo+json","ids":0}"#
        let location = try #require(try Self.outcome(json).layers.first?.location)
        #expect(location.holdsIds && location.ids == 0 && location.contentEncoding == nil)
        #expect(location.format == .geojson && location.compression == QueryJob.StoredCompression.none)
    }

    @Test func anInlineLayerHasNoLocation() throws {
        let layer = try #require(try Self.outcome(nil).layers.first)
        #expect(layer.location == nil)
        #expect(layer.objectIds == [1, 2])
    }

    @Test(arguments: [
        // Not an object, a count that is text, members missing.
        #""s3://b/k""#,
        #"{"url":"s3://b/k","httpUrl":"http://h/k","expiresAt":"2026-12-06T09:00:00Z","bytes":"12","sha256":"SHA","contentType":"application/geo+json","features":1}"#,
        #"{"url":"s3://b/k","expiresAt":"2026-12-06T09:00:00Z","bytes":12,"sha256":"SHA","contentType":"application/geo+json","features":1}"#,
        // Present but unusable: no s3 URL, no http URL, a date that is not RFC 3339, a bad digest, a negative size,
        // both counts or neither.
        #"{"url":"https://b/k","httpUrl":"http://h/k","expiresAt":"2026-12-06T09:00:00Z","bytes":12,"sha256":"SHA","contentType":"application/geo+json","features":1}"#,
        #"{"url":"s3://b/k","httpUrl":"ftp://h/k","expiresAt":"2026-12-06T09:00:00Z","bytes":12,"sha256":"SHA","contentType":"application/geo+json","features":1}"#,
        #"{"url":"s3://b/k","httpUrl":"http://h/k","expiresAt":"tomorrow","bytes":12,"sha256":"SHA","contentType":"application/geo+json","features":1}"#,
        #"{"url":"s3://b/k","httpUrl":"http://h/k","expiresAt":"2026-12-06T09:00:00Z","bytes":12,"sha256":"abc","contentType":"application/geo+json","features":1}"#,
        #"{"url":"s3://b/k","httpUrl":"http://h/k","expiresAt":"2026-12-06T09:00:00Z","bytes":-1,"sha256":"SHA","contentType":"application/geo+json","features":1}"#,
        #"{"url":"s3://b/k","httpUrl":"http://h/k","expiresAt":"2026-12-06T09:00:00Z","bytes":12,"sha256":"SHA","contentType":"application/geo+json","features":1,"ids":1}"#,
        #"{"url":"s3://b/k","httpUrl":"http://h/k","expiresAt":"2026-12-06T09:00:00Z","bytes":12,"sha256":"SHA","contentType":"application/geo+json"}"#,
    ])
    func aMalformedLocationIsAMalformedOutcome(json: String) {
        let error = #expect(throws: FeatureQueryError.self) { try Self.outcome(json.replacingOccurrences(of: "SHA", with: Self.sha)) }
        #expect(error?.code == .malformedOutcome, "\(json)")
    }
}

/// `delivery`, `format` and `compression` as a job says them: in the message only when not the default, and
/// checked by the worker's own decoder like every other field.
@Suite struct JobDeliveryTests {
    static func message(_ job: QueryJob) throws -> [String: Any] {
        let client = try FeatureQueryClient(
            configuration: .init(bootstrapServers: ["127.0.0.1:1"], readsOutcomes: false), logger: MotoStore.logger)
        try client.validate(job)
        return try #require(try JSONSerialization.jsonObject(with: Data(job.messageValue())) as? [String: Any])
    }

    static let target = QueryJob.Target.arcgis(url: "https://gis.example.com/arcgis/rest/services/P/FeatureServer/0")

    @Test func defaultsAreLeftOut() throws {
        let message = try Self.message(QueryJob(targets: [Self.target]))
        #expect(message["delivery"] == nil && message["format"] == nil && message["compression"] == nil)
    }

    @Test func otherValuesAreWritten() throws {
        let message = try Self.message(QueryJob(targets: [Self.target], delivery: .store, format: .ndjson, compression: .zstd))
        #expect(message["delivery"] as? String == "store")
        #expect(message["format"] as? String == "ndjson")
        #expect(message["compression"] as? String == "zstd")
        #expect(try Self.message(QueryJob(targets: [Self.target], delivery: .inline))["delivery"] as? String == "inline")
    }

    @Test func aFormatWithInlineDeliveryIsRejectedAsTheWorkerWould() throws {
        let error = #expect(throws: FeatureQueryError.self) {
            _ = try Self.message(QueryJob(targets: [Self.target], delivery: .inline, compression: .gzip))
        }
        #expect(error?.code.rawValue == "invalid_value")
    }
}
