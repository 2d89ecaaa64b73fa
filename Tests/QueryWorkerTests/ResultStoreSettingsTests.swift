import Logging
@testable import QueryWorker
import Testing

/// The result store's settings: off by default; a location, endpoint and sizes read from every source and
/// checked at start (a typo in the bucket fails there, naming the setting); the region falls back on the AWS
/// variables; credentials are no setting at all.
@Suite struct ResultStoreSettingsTests {
    @Test func offByDefault() throws {
        let settings = try WorkerSettings.load(environment: [:]).settings
        #expect(!settings.resultStore.isEnabled)
        #expect(settings.resultStore.thresholdBytes == 1 << 20)
        #expect(settings.resultStore.partBytes == 8 << 20)
        #expect(settings.resultStore.urlLifetime == .seconds(3600))
        #expect(settings.resultStore.resolvedRegion(environment: [:]) == "us-east-1")
    }

    @Test func everyKeyIsReadFromTheEnvironmentAndFlags() throws {
        let settings = try WorkerSettings.load(
            flags: ["resultStoreUrlLifetime": "15m", "resultStorePartBytes": "16MiB"],
            environment: [
                "QUERY_WORKER_RESULT_STORE": "s3://results/feature-queries", "QUERY_WORKER_RESULT_STORE_ENDPOINT": "http://127.0.0.1:9000",
                "QUERY_WORKER_RESULT_STORE_REGION": "eu-west-1", "QUERY_WORKER_RESULT_STORE_THRESHOLD": "2MiB",
            ]
        ).settings
        #expect(settings.resultStore.location == "s3://results/feature-queries")
        #expect(settings.resultStore.endpoint == "http://127.0.0.1:9000")
        #expect(settings.resultStore.resolvedRegion(environment: ["AWS_REGION": "us-west-2"]) == "eu-west-1")
        #expect(settings.resultStore.thresholdBytes == 2 << 20)
        #expect(settings.resultStore.partBytes == 16 << 20)
        #expect(settings.resultStore.urlLifetime == .seconds(900))
        #expect(settings.logMetadata["resultStore"] == "s3://results/feature-queries")
    }

    /// The spellings the documentation gives (swift-configuration's encoding: no underscore inside `URL`).
    @Test func variablesAndFlags() {
        #expect(SettingsKey.resultStore.environmentVariable == "QUERY_WORKER_RESULT_STORE")
        #expect(SettingsKey.resultStorePartBytes.flag == "--result-store-part-bytes")
        #expect(SettingsKey.resultStoreUrlLifetime.environmentVariable == "QUERY_WORKER_RESULT_STORE_URL_LIFETIME")
        #expect(SettingsKey.resultStoreUrlLifetime.flag == "--result-store-url-lifetime")
    }

    @Test func theLifetimeIsReadFromItsVariable() throws {
        let settings = try WorkerSettings.load(environment: ["QUERY_WORKER_RESULT_STORE_URL_LIFETIME": "2h"]).settings
        #expect(settings.resultStore.urlLifetime == .seconds(7_200))
    }

    @Test func theRegionFallsBackOnTheAWSVariables() {
        let store = WorkerSettings.ResultStore()
        #expect(store.resolvedRegion(environment: ["AWS_REGION": "ap-south-1", "AWS_DEFAULT_REGION": "eu-central-1"]) == "ap-south-1")
        #expect(store.resolvedRegion(environment: ["AWS_DEFAULT_REGION": "eu-central-1"]) == "eu-central-1")
    }

    @Test(arguments: [
        (["resultStore": "https://results/x"], "resultStore", "s3://bucket/prefix"),
        (["resultStore": "s3://Results_Bucket/x"], "resultStore", "not a valid bucket name"),
        (["resultStore": "s3://results/a//b"], "resultStore", "empty path segment"),
        (["resultStoreEndpoint": "127.0.0.1:9000"], "resultStoreEndpoint", "http:// or https://"),
        (["resultStoreEndpoint": "http://127.0.0.1:9000/path"], "resultStoreEndpoint", "without a path"),
        (["resultStoreRegion": "EU West"], "resultStoreRegion", "white space"),
        (["resultStoreRegion": "EU_WEST"], "resultStoreRegion", "region name"),
        (["resultStorePartBytes": "1MiB"], "resultStorePartBytes", "between 5242880"),
        (["resultStoreThreshold": "lots"], "resultStoreThreshold", "size in bytes"),
        (["resultStoreUrlLifetime": "200h"], "resultStoreUrlLifetime", "at most a week"),
        (["resultStoreUrlLifetime": "500ms"], "resultStoreUrlLifetime", "at least 1s"),
    ])
    func badValuesAreRefusedNamingTheSetting(_ flags: [String: String], _ key: String, _ fragment: String) {
        #expect {
            _ = try WorkerSettings.load(flags: flags, environment: [:])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == key && error.message.contains(fragment)
        }
    }

    /// Nothing about the store's credentials is a setting: the AWS SDKs' variables are not the worker's keys.
    @Test func credentialsAreNoSettings() {
        #expect(SettingsKey.all.allSatisfy { !$0.name.lowercased().contains("secret") && !$0.name.lowercased().contains("accesskey") })
    }
}
