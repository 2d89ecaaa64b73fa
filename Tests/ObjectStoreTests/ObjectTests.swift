import FeatureQuerySupport
import ObjectStore
import ObjectStoreFixture
import Testing

@Suite("Single objects in moto")
struct ObjectTests {
    /// A put object is there with its size, content type and the ETag the put returned; boto3 reads the bytes.
    @Test func putThenHead() async throws {
        let moto = try await SharedMoto.server()
        let key = ObjectStoreTestSupport.uniqueKey("put") + "/small result.json"  // a space: the path's encoding is signed
        let body = Array(#"{"type":"FeatureCollection","features":[]}"#.utf8)
        try await ObjectStoreTestSupport.withClient(moto) { s3 in
            let eTag = try await s3.putObject(key: key, body: body, contentType: "application/json")
            let head = try await s3.headObject(key: key)
            #expect(head.size == body.count)
            #expect(head.eTag == eTag)
            #expect(head.contentType == "application/json")
        }
        #expect(try await moto.readWithBoto3(key: key) == body)
    }

    /// An empty body is a valid object (an empty result).
    @Test func emptyObject() async throws {
        let moto = try await SharedMoto.server()
        let key = ObjectStoreTestSupport.uniqueKey("empty")
        let size = try await ObjectStoreTestSupport.withClient(moto) { s3 in
            try await s3.putObject(key: key, body: [])
            return try await s3.headObject(key: key).size
        }
        #expect(size == 0)
    }
}
