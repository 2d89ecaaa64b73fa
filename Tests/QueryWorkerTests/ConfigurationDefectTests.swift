import Foundation
@testable import QueryWorker
import Testing
@testable import RequestContract

/// Settings that were accepted or ignored without a word.
@Suite struct ConfigurationDefectTests {
    @Test(arguments: ["127.0.0.1:99999", "k1:9092,k2:0", "[::1]:70000", "SSL://broker:65536", "broker:port"])
    func aBrokerPortOutside1To65535IsRefusedNamingTheSetting(_ servers: String) {
        #expect {
            _ = try WorkerSettings.load(flags: ["bootstrapServers": servers], environment: [:])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            let ok = error.key == "bootstrapServers" && error.message.contains("1 to 65535") && error.code.rawValue == "invalid_value"
            if !ok { Issue.record("\(servers): \(error)") }
            return ok
        }
    }

    @Test(arguments: ["127.0.0.1:65535", "k1:1,k2:9092", "[::1]:9092", "SSL://broker:9093", "broker", "::1"])
    func validBrokerEntriesStillLoad(_ servers: String) throws {
        let loaded = try WorkerSettings.load(flags: ["bootstrapServers": servers], environment: [:])
        #expect(loaded.settings.bootstrapServers.joined(separator: ",") == servers)
    }

    @Test func maxTargetsAndMaxLayersReachTheDecoder() throws {
        let loaded = try WorkerSettings.load(environment: ["QUERY_WORKER_MAX_TARGETS": "2", "QUERY_WORKER_MAX_LAYERS": "7"])
        #expect(loaded.settings.limits.maxTargets == 2 && loaded.settings.limits.maxLayers == 7)
        #expect(loaded.settings.requestLimits.maxTargets == 2)
        #expect(loaded.settings.requestLimits.maxLayers == 7)
        #expect(loaded.settings.requestLimits.maxMessageBytes == loaded.settings.limits.maxRequestBytes)
        #expect(WorkerSettings().limits.maxLayers == 100)
    }

    @Test(arguments: [("maxTargets", "17", "between 1 and 16"), ("maxLayers", "0", "between 1 and 1600"),
                      ("maxLayers", "1601", "between 1 and 1600")])
    func targetAndLayerBoundsStayWithinTheContract(_ setting: (String, String, String)) {
        #expect {
            _ = try WorkerSettings.load(flags: [setting.0: setting.1], environment: [:])
        } throws: { error in
            guard let error = error as? SettingsError else { return false }
            return error.key == setting.0 && error.message.contains(setting.2)
        }
    }

    @Test func aMisspelledVariableIsWarnedAboutWithTheNearestName() throws {
        let loaded = try WorkerSettings.load(environment: [
            "QUERY_WORKER_MAX_INFLIGHT": "5", "QUERY_WORKER_BOOTSTRAP_SERVER": "k:9092", "QUERY_WORKER_SERVICE_HOST": "10.0.0.1",
            "QUERY_WORKER_PORT_8080_TCP": "tcp://10.0.0.1:8080", "QUERY_WORKER_PYTHON": "/usr/bin/python3",
            "QUERY_WORKER_SOMETHING_ELSE_ENTIRELY": "1",
        ])
        #expect(loaded.environmentWarnings == [
            "environment variable QUERY_WORKER_BOOTSTRAP_SERVER is not a setting and is ignored; did you mean "
                + "QUERY_WORKER_BOOTSTRAP_SERVERS?",
            "environment variable QUERY_WORKER_MAX_INFLIGHT is not a setting and is ignored; did you mean "
                + "QUERY_WORKER_MAX_IN_FLIGHT?",
            "environment variable QUERY_WORKER_SOMETHING_ELSE_ENTIRELY is not a setting and is ignored",
        ])
    }
}
