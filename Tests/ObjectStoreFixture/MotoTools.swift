import ChildProcessFixture
import CurlHTTP
import Foundation
import Logging

/// Finding Python, waiting for moto, and the setup it runs.
enum MotoTools {
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The Python with moto, boto3 and the AWS CLI: `QUERY_WORKER_PYTHON` (scripts/test sets it), else the
    /// repository's `.venv`.
    static func python() throws -> String {
        if let configured = ProcessInfo.processInfo.environment["QUERY_WORKER_PYTHON"] { return configured }
        let venv = repositoryRoot.appendingPathComponent(".venv/bin/python").path
        guard FileManager.default.isExecutableFile(atPath: venv) else {
            throw ChildProcessFailure("no Python with moto: run scripts/setup-deps test or set QUERY_WORKER_PYTHON")
        }
        return venv
    }

    static func clientEnvironment(endpoint: String, key: String, secret: String) -> [String: String] {
        [
            "AWS_ACCESS_KEY_ID": key, "AWS_SECRET_ACCESS_KEY": secret, "AWS_DEFAULT_REGION": "us-east-1",
            "AWS_CONFIG_FILE": "/dev/null", "AWS_SHARED_CREDENTIALS_FILE": "/dev/null", "AWS_EC2_METADATA_DISABLED": "true",
            "MOTO_ENDPOINT": endpoint,
        ]
    }

    /// Polls moto's own API (which does not count as an action) until it answers 200.
    static func waitUntilAnswering(_ url: String, _ server: WatchedProcess, timeout: Duration = .seconds(60)) async throws {
        let client = try HTTPClient(logger: Logger(label: "moto-fixture") { _ in SwiftLogNoOpLogHandler() })
        let request = HTTPRequest(url: url, options: HTTPRequestOptions(connectTimeout: .seconds(1), timeout: .seconds(5)))
        let deadline = ContinuousClock.now + timeout
        var failure: ChildProcessFailure?
        while failure == nil {
            if let response = try? await client.execute(request), response.status == 200 { break }
            if !server.isRunning {
                failure = ChildProcessFailure("moto exited: \(server.log.suffix(3_000))")
            } else if ContinuousClock.now >= deadline {
                failure = ChildProcessFailure("moto did not answer \(url) within \(timeout): \(server.log.suffix(3_000))")
            } else {
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        await client.shutdown()
        if let failure { throw failure }
    }

    /// Creates the IAM user (S3 allowed), its keys, a role a web identity or the user may assume (S3 allowed) and
    /// the bucket; with `MOTO_CHECK_SIGNATURES=1` turns signature checking on and takes temporary credentials of
    /// the role (signed by the user). Prints the key, the secret, the role's ARN and the temporary key, secret and
    /// token (`-` each without signature checking).
    static let setupScript = """
        import json, os, urllib.request
        import boto3
        endpoint = os.environ["MOTO_ENDPOINT"]
        iam = boto3.client("iam", endpoint_url=endpoint)
        allow = json.dumps({"Version": "2012-10-17", "Statement": [{"Effect": "Allow", "Action": ["s3:*", "sts:*"], "Resource": "*"}]})
        iam.create_user(UserName="worker")
        iam.put_user_policy(UserName="worker", PolicyName="results", PolicyDocument=allow)
        key = iam.create_access_key(UserName="worker")["AccessKey"]
        trust = json.dumps({"Version": "2012-10-17", "Statement": [
            {"Effect": "Allow", "Principal": {"Federated": "oidc"}, "Action": "sts:AssumeRoleWithWebIdentity"},
            {"Effect": "Allow", "Principal": {"AWS": "*"}, "Action": "sts:AssumeRole"}]})
        role = iam.create_role(RoleName="worker-pod", AssumeRolePolicyDocument=trust)["Role"]["Arn"]
        iam.put_role_policy(RoleName="worker-pod", PolicyName="results", PolicyDocument=allow)
        boto3.client("s3", endpoint_url=endpoint).create_bucket(Bucket=os.environ["MOTO_BUCKET"])
        temporary = ["-", "-", "-"]
        if os.environ.get("MOTO_CHECK_SIGNATURES") == "1":
            request = urllib.request.Request(endpoint + "/moto-api/reset-auth", data=b"0", method="POST", headers={"Content-Type": "text/plain"})
            urllib.request.urlopen(request).read()
            sts = boto3.client("sts", endpoint_url=endpoint, aws_access_key_id=key["AccessKeyId"], aws_secret_access_key=key["SecretAccessKey"])
            assumed = sts.assume_role(RoleArn=role, RoleSessionName="tests")["Credentials"]
            temporary = [assumed["AccessKeyId"], assumed["SecretAccessKey"], assumed["SessionToken"]]
        print(key["AccessKeyId"], key["SecretAccessKey"], role, *temporary)
        """
}
