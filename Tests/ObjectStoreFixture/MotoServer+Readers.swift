import ChildProcessFixture
import Foundation

/// Independent clients reading what the bridge wrote: boto3, the AWS CLI, and curl on a presigned URL. Each
/// returns the bytes it got, so a test compares them with what it sent.
extension MotoServer {
    /// The object as boto3's `get_object` reads it (signed by botocore with the user's keys).
    package func readWithBoto3(key: String) async throws -> [UInt8] {
        try await readingFile { path in
            let script = """
                import os, sys, boto3
                s3 = boto3.client("s3", endpoint_url=os.environ["MOTO_ENDPOINT"])
                body = s3.get_object(Bucket=sys.argv[1], Key=sys.argv[2])["Body"].read()
                open(sys.argv[3], "wb").write(body)
                """
            try await ChildProcesses.run([python, "-c", script, bucket, key, path], environment: .adding(clientEnvironment))
        }
    }

    /// The object as `aws s3 cp --endpoint-url` downloads it (the CLI next to the Python, in the venv).
    package func readWithAWSCLI(key: String) async throws -> [UInt8] {
        let aws = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("aws").path
        return try await readingFile { path in
            try await ChildProcesses.run(
                [aws, "s3", "cp", "s3://\(bucket)/\(key)", path, "--endpoint-url", endpoint, "--region", region, "--only-show-errors"],
                environment: .adding(clientEnvironment), timeout: .seconds(180))
        }
    }

    /// Runs the AWS CLI (the one next to the Python, in the venv) against this server with the user's keys; its
    /// standard output.
    @discardableResult
    package func runAWSCLI(_ arguments: [String]) async throws -> String {
        let aws = URL(fileURLWithPath: python).deletingLastPathComponent().appendingPathComponent("aws").path
        return try await ChildProcesses.run(
            [aws] + arguments + ["--endpoint-url", endpoint, "--region", region], environment: .adding(clientEnvironment),
            timeout: .seconds(120))
    }

    /// What plain curl gets from `url` (a presigned URL: no credentials of its own); fails on an HTTP error.
    package func readWithCurl(url: String) async throws -> [UInt8] {
        try await readingFile { path in
            try await ChildProcesses.run(["/usr/bin/curl", "--silent", "--show-error", "--fail", "--output", path, url])
        }
    }

    /// The presigned GET URL botocore (the reference signer) makes for `key` at `epochSeconds` with the user's
    /// keys: what the bridge's URL must equal, since moto does not verify presigned signatures.
    package func presignWithBotocore(key: String, expiresSeconds: Int, epochSeconds: Int) async throws -> String {
        let script = """
            import datetime, os, sys, boto3, botocore.auth, botocore.config
            moment = datetime.datetime.fromtimestamp(int(sys.argv[4]), datetime.timezone.utc).replace(tzinfo=None)
            botocore.auth.get_current_datetime = lambda *args, **kwargs: moment
            s3 = boto3.client("s3", endpoint_url=os.environ["MOTO_ENDPOINT"], config=botocore.config.Config(signature_version="s3v4"))
            print(s3.generate_presigned_url("get_object", Params={"Bucket": sys.argv[1], "Key": sys.argv[2]}, ExpiresIn=int(sys.argv[3])))
            """
        let output = try await ChildProcesses.run(
            [python, "-c", script, bucket, key, String(expiresSeconds), String(epochSeconds)], environment: .adding(clientEnvironment))
        return output.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    private func readingFile(_ write: (String) async throws -> Void) async throws -> [UInt8] {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("object-\(UUID().uuidString.prefix(8))").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        try await write(path)
        guard let data = FileManager.default.contents(atPath: path) else { throw ChildProcessFailure("nothing was written to \(path)") }
        return [UInt8](data)
    }
}
