import CurlHTTP
import FeatureQuerySupport
import Testing
import FeatureService

@testable import ArcGISEngine
import SampleFeatureServer

/// Random byte mutations of valid bodies: every decoder returns a value or an FeatureServiceError, never crashes,
/// and marks its errors sensibly.
@Suite("Mutated bodies never crash")
struct ResponseDecodingFuzzTests {
    static let seeds: [String] = [
        DecodingFixture.featureServerLayer, DecodingFixture.mapServerSublayer, DecodingFixture.table, DecodingFixture.groupLayer, DecodingFixture.service,
        DecodingFixture.pointPage, DecodingFixture.polygonPage,
        #"{"objectIdFieldName":"OBJECTID","objectIds":[1,22,333,4444,-5,0]}"#,
        #"{"objectIdFieldName":"OBJECTID","objectIds":null,"note":"a \"b\" \\ \u00e9","x":{"y":[1,{"z":null}]}}"#,
        #"{"count":12345}"#,
        #"{"error":{"code":498,"message":"Invalid token.","details":["d"]}}"#,
        #"{"status":"error","messages":["Token Expired."],"code":498}"#,
    ]

    /// One mutation: flip, insert, delete, duplicate a span, or cut.
    static func mutate(_ bytes: [UInt8], using generator: inout SplitMix64) -> [UInt8] {
        var bytes = bytes
        let interesting: [UInt8] = Array(#"{}[]",:0-9.eE\"u tfn"#.utf8) + [0x00, 0x1F, 0x80, 0xFF, 0xC3]
        for _ in 0..<Int.random(in: 1...4, using: &generator) {
            guard !bytes.isEmpty else { break }
            let index = Int.random(in: 0..<bytes.count, using: &generator)
            switch Int.random(in: 0..<6, using: &generator) {
            case 0: bytes[index] = interesting.randomElement(using: &generator) ?? 0
            case 1: bytes.insert(interesting.randomElement(using: &generator) ?? 0, at: index)
            case 2: bytes.remove(at: index)
            case 3: bytes[index] = UInt8.random(in: 0...255, using: &generator)
            case 4:
                let end = min(bytes.count, index + Int.random(in: 1...16, using: &generator))
                bytes.insert(contentsOf: bytes[index..<end], at: index)
            default: bytes.removeSubrange(index...)
            }
        }
        return bytes
    }

    static func check(_ error: FeatureServiceError?, body: [UInt8]) {
        guard let error else { return }
        #expect(!error.message.isEmpty)
        #expect(error.layer == DecodingFixture.layerURL)
        if error.code == .malformedResponse, error.isRetryable {
            // Only truncation and emptiness are retryable among malformed bodies.
            #expect(error.message.contains("truncated") || error.message.contains("empty") || error.message.contains("whitespace"),
                    "\(error.message) for \(String(decoding: body, as: UTF8.self))")
        }
    }

    @Test("10,000 mutations across every decoder")
    func mutations() {
        var generator = SplitMix64(seed: 0xA5C1_5EED)
        let layer = DecodingFixture.layerURLWithToken
        for round in 0..<10_000 {
            let seed = Self.seeds[round % Self.seeds.count]
            let body = Self.mutate(Array(seed.utf8), using: &generator)
            let errors = [
                decodingError { () throws(FeatureServiceError) in try ArcGISResponse.objectIDs(body, layer: layer) },
                decodingError { () throws(FeatureServiceError) in try ArcGISResponse.count(body, layer: layer) },
                decodingError { () throws(FeatureServiceError) in try ArcGISResponse.layerMetadata(body, url: layer) },
                decodingError { () throws(FeatureServiceError) in try ArcGISResponse.serviceMetadata(body, url: layer) },
                decodingError { () throws(FeatureServiceError) in
                    try ArcGISResponse.featurePage(body, layer: layer, objectIdField: "OBJECTID")
                },
                decodingError { () throws(FeatureServiceError) in
                    try ArcGISResponse.checkStatus(500, headers: [:], body: body, layer: layer)
                },
            ]
            for error in errors { Self.check(error, body: body) }
        }
    }

    @Test("the ids scanner agrees with the general parser on what is truncated")
    func idsScannerAgreesOnTruncation() {
        let seed = Array(#"{"objectIdFieldName":"OBJECTID","note":"x\"y","objectIds":[10,200,3000],"z":[{"a":null}]}"#.utf8)
        for cut in 0..<seed.count {
            let body = Array(seed[..<cut])
            let ids = decodingError { () throws(FeatureServiceError) in try ArcGISResponse.objectIDs(body, layer: DecodingFixture.layerURL) }
            let count = decodingError { () throws(FeatureServiceError) in try ArcGISResponse.count(body, layer: DecodingFixture.layerURL) }
            #expect(ids?.isRetryable == true, "cut at \(cut): \(String(describing: ids))")
            #expect(count?.isRetryable == true, "cut at \(cut): \(String(describing: count))")
        }
    }
}
