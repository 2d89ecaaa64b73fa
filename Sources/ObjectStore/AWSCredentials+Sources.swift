import Foundation

/// `AWS_ACCESS_KEY_ID`, `AWS_SECRET_ACCESS_KEY` and `AWS_SESSION_TOKEN`, as every AWS SDK reads them.
package struct EnvironmentCredentialsProvider: AWSCredentialsProvider {
    let environment: [String: String]

    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        self.environment = environment
    }

    /// Whether the environment names an access key at all (the chain moves on when it does not).
    package var isConfigured: Bool { environment["AWS_ACCESS_KEY_ID"].map { !$0.isEmpty } ?? false }

    package func credentials() async throws(ObjectStoreError) -> AWSCredentials {
        guard let key = environment["AWS_ACCESS_KEY_ID"], !key.isEmpty else {
            throw .credentials("AWS_ACCESS_KEY_ID is not set")
        }
        guard let secret = environment["AWS_SECRET_ACCESS_KEY"], !secret.isEmpty else {
            throw .credentials("AWS_ACCESS_KEY_ID is set but AWS_SECRET_ACCESS_KEY is not")
        }
        let token = environment["AWS_SESSION_TOKEN"].flatMap { $0.isEmpty ? nil : $0 }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token)
    }
}

/// A profile of the shared credentials file (`AWS_SHARED_CREDENTIALS_FILE`, else `~/.aws/credentials`;
/// `AWS_PROFILE`, else `default`), read at every call so a rotated key is used at once.
package struct SharedCredentialsFileProvider: AWSCredentialsProvider {
    package let path: String
    package let profile: String

    package init(path: String, profile: String = "default") {
        self.path = path
        self.profile = profile
    }

    /// The file and profile the environment names, as the AWS CLI chooses them.
    package init(environment: [String: String] = ProcessInfo.processInfo.environment) {
        let home = environment["HOME"] ?? NSHomeDirectory()
        path = environment["AWS_SHARED_CREDENTIALS_FILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "\(home)/.aws/credentials"
        profile = environment["AWS_PROFILE"].flatMap { $0.isEmpty ? nil : $0 } ?? "default"
    }

    package var fileExists: Bool { FileManager.default.fileExists(atPath: path) }

    package func credentials() async throws(ObjectStoreError) -> AWSCredentials {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw .credentials("the AWS credentials file \(path) can't be read")
        }
        let sections = Self.parse(String(decoding: data, as: UTF8.self))
        guard let values = sections[profile] else {
            throw .credentials("the AWS credentials file \(path) has no profile [\(profile)]")
        }
        guard let key = values["aws_access_key_id"], !key.isEmpty, let secret = values["aws_secret_access_key"], !secret.isEmpty else {
            throw .credentials("profile [\(profile)] of \(path) lacks aws_access_key_id or aws_secret_access_key")
        }
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: values["aws_session_token"])
    }

    /// The INI file's sections: `[name]` lines, then `key = value` lines (`#` and `;` start comments).
    static func parse(_ text: String) -> [String: [String: String]] {
        var sections: [String: [String: String]] = [:]
        var current: String?
        for rawLine in text.split(whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.isEmpty || line.hasPrefix("#") || line.hasPrefix(";") { continue }
            if line.hasPrefix("["), line.hasSuffix("]") {
                let name = line.dropFirst().dropLast().trimmingCharacters(in: .whitespaces)
                current = name
                sections[name, default: [:]] = sections[name] ?? [:]
                continue
            }
            guard let current, let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: equals)...].trimmingCharacters(in: .whitespaces)
            sections[current, default: [:]][key] = value
        }
        return sections
    }
}

/// The order the AWS SDKs look in: the environment's keys, then web identity (`AWS_WEB_IDENTITY_TOKEN_FILE`
/// and `AWS_ROLE_ARN`, as Kubernetes' IRSA sets them), then the shared credentials file. Decided once, at
/// creation, so a request never switches source halfway.
package enum AWSCredentialsChain {
    /// The first source the environment configures, or a `credentials` error naming what was looked for.
    package static func provider(
        environment: [String: String] = ProcessInfo.processInfo.environment, stsClient: @autoclosure () -> STSClient?
    ) throws(ObjectStoreError) -> any AWSCredentialsProvider {
        let variables = EnvironmentCredentialsProvider(environment: environment)
        if variables.isConfigured { return variables }
        if let web = WebIdentityCredentialsProvider.Configuration(environment: environment), let sts = stsClient() {
            return WebIdentityCredentialsProvider(configuration: web, sts: sts)
        }
        let file = SharedCredentialsFileProvider(environment: environment)
        if file.fileExists { return file }
        throw .credentials(
            "no AWS credentials: set AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY, AWS_WEB_IDENTITY_TOKEN_FILE and AWS_ROLE_ARN, or write \(file.path)")
    }
}
