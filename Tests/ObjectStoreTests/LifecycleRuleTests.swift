import Foundation
import ObjectStoreFixture
import Testing

/// The bucket lifecycle rule deploy/object-store/lifecycle.json shows operators (old results expire, abandoned
/// multipart uploads are aborted): the AWS CLI applies it to a bucket as the README says, and the bucket reports it.
@Suite("The results bucket's lifecycle rule")
struct LifecycleRuleTests {
    static let rulePath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("deploy/object-store/lifecycle.json").path

    @Test func theCLIAppliesTheRuleAndTheBucketReportsIt() async throws {
        let moto = try await SharedMoto.openServer()
        try await moto.runAWSCLI([
            "s3api", "put-bucket-lifecycle-configuration", "--bucket", moto.bucket,
            "--lifecycle-configuration", "file://\(Self.rulePath)",
        ])
        let answer = try await moto.runAWSCLI(["s3api", "get-bucket-lifecycle-configuration", "--bucket", moto.bucket])
        let document = try #require(try JSONSerialization.jsonObject(with: Data(answer.utf8)) as? [String: Any], "\(answer)")
        let rule = try #require((document["Rules"] as? [[String: Any]])?.first, "\(answer)")
        #expect(rule["ID"] as? String == "expire-feature-query-results")
        #expect(rule["Status"] as? String == "Enabled")
        #expect((rule["Expiration"] as? [String: Any])?["Days"] as? Int == 7)
        #expect((rule["AbortIncompleteMultipartUpload"] as? [String: Any])?["DaysAfterInitiation"] as? Int == 1)
        #expect((rule["Filter"] as? [String: Any])?["Prefix"] as? String == "feature-queries/")
    }
}
