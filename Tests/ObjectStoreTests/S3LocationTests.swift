import ObjectStore
import Testing

@Suite("S3 locations")
struct S3LocationTests {
    @Test func bucketAndPrefix() throws {
        let location = try S3Location(parsing: "s3://query-results/worker/large")
        #expect(location.bucket == "query-results")
        #expect(location.prefix == "worker/large/")
        #expect(location.key("run-1.geojson") == "worker/large/run-1.geojson")
        #expect(location.description == "s3://query-results/worker/large/")
    }

    @Test func bucketAlone() throws {
        let location = try S3Location(parsing: "s3://results/")
        #expect(location.bucket == "results")
        #expect(location.prefix.isEmpty)
        #expect(location.key("a") == "a")
    }

    @Test(arguments: ["https://results/x", "s3://", "s3://Results/x", "s3://ab/x", "s3://-results", "s3://re..sults", "s3://results/a//b"])
    func refused(_ text: String) {
        let error = #expect(throws: ObjectStoreError.self) { try S3Location(parsing: text) }
        #expect(error?.code == .invalidConfiguration)
        #expect(error?.isFatal == true)
    }
}
