import ChildProcessFixture
import CurlHTTP
import Foundation
import Logging

/// pygeoapi (PyPI, 0.21: the last release for Python 3.11) serving OGC API Features on a free loopback
/// port: the independent server the OGC tests run against.
///
/// ``start(collections:maxItems:ownedDirectories:)`` writes a configuration (`server.bind` and `server.url` on the port, one
/// resource per collection), runs `pygeoapi openapi generate`, then serves pygeoapi's own Flask application
/// (`pygeoapi.flask_app`) with `flask run --no-reload --no-debugger`: `pygeoapi serve` hard-codes Flask's
/// debug mode, whose reloader forks a second interpreter (twice the start-up time, and a grandchild that
/// outlives a stopped parent) and whose debugger answers errors with HTML pages. It returns once the landing
/// page answers. The server runs under a ``WatchedProcess``: ``stop()``, or the test process ending, stops
/// it and deletes its directory.
package final class PygeoapiServer: Sendable {
    /// The landing page, `http://127.0.0.1:<port>` (pygeoapi's links use it as their base).
    package let landingURL: String
    /// The collections served, in configuration order.
    package let collections: [PygeoapiCollection]
    private let server: WatchedProcess

    private init(landingURL: String, collections: [PygeoapiCollection], server: WatchedProcess) {
        self.landingURL = landingURL
        self.collections = collections
        self.server = server
    }

    /// The URL of a collection: `{landing}/collections/{id}`.
    package func collectionURL(_ id: String) -> String { "\(landingURL)/collections/\(id)" }

    /// Starts pygeoapi with `collections`. `maxItems` is the largest `limit` it honours (`server.limits.max_items`;
    /// larger ones are clamped to it); the default page size stays pygeoapi's 10.
    /// `ownedDirectories` (e.g. where the GeoJSON files are) are deleted with the server.
    package static func start(
        collections: [PygeoapiCollection], maxItems: Int = 10_000, ownedDirectories: [String] = []
    ) async throws -> PygeoapiServer {
        let python = try FixtureTools.require("Python with pygeoapi (QUERY_WORKER_PYTHON or .venv)", FixtureTools.python)
        let directory = try FixtureTools.makeDirectory(prefix: "pygeoapi")
        do {
            let port = try FixtureTools.unusedPort()
            let url = "http://127.0.0.1:\(port)"
            let config = "\(directory)/config.yml"
            let openAPI = "\(directory)/openapi.yml"
            try configuration(url: url, port: port, maxItems: maxItems, collections: collections).write(to: URL(fileURLWithPath: config))
            var environment = ProcessInfo.processInfo.environment
            environment["PYGEOAPI_CONFIG"] = config
            environment["PYGEOAPI_OPENAPI"] = openAPI
            // `pygeoapi openapi generate` (the console script, run by this Python: its bin directory need not be
            // on PATH), then the server, both under the watchdog: a test process dying during either leaves
            // nothing behind.
            let script = """
                "$1" -c 'import sys; from pygeoapi import cli; sys.argv[0] = "pygeoapi"; sys.exit(cli())' \\
                    openapi generate "$PYGEOAPI_CONFIG" --output-file "$PYGEOAPI_OPENAPI" >/dev/null || exit 1
                exec "$1" -m flask --app pygeoapi.flask_app run --host 127.0.0.1 --port "$2" --no-reload --no-debugger \\
                    --with-threads
                """
            let server = try WatchedProcess(
                name: "pygeoapi", ["/bin/sh", "-c", script, "pygeoapi-launch", python, String(port)],
                removeOnExit: [directory] + ownedDirectories, environment: environment, logDirectory: directory)
            do {
                try await waitForLandingPage(url, server)
            } catch {
                await server.stop()
                throw error
            }
            return PygeoapiServer(landingURL: url, collections: collections, server: server)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    /// pygeoapi's configuration, as JSON (YAML's subset: no quoting rules to get wrong).
    private static func configuration(url: String, port: Int, maxItems: Int, collections: [PygeoapiCollection]) throws -> Data {
        var resources: [String: Any] = [:]
        for collection in collections { resources[collection.id] = collection.resource() }
        let config: [String: Any] = [
            "server": [
                "bind": ["host": "127.0.0.1", "port": port], "url": url, "mimetype": "application/json; charset=UTF-8",
                "encoding": "utf-8", "language": "en-US", "limits": ["default_items": 10, "max_items": maxItems],
                "map": ["url": "https://tile.openstreetmap.org/{z}/{x}/{y}.png", "attribution": "OpenStreetMap"],
            ] as [String: Any],
            "logging": ["level": "ERROR"],
            "metadata": [
                "identification": [
                    "title": "feature-query-worker tests", "description": "pygeoapi for the OGC API Features tests",
                    "keywords": ["test"], "keywords_type": "theme", "terms_of_service": "none", "url": url,
                ] as [String: Any],
                "license": ["name": "CC-BY 4.0", "url": "https://creativecommons.org/licenses/by/4.0/"],
                "provider": ["name": "feature-query-worker", "url": url],
                "contact": ["name": "feature-query-worker"],
            ],
            "resources": resources,
        ]
        let json = try JSONSerialization.data(withJSONObject: config, options: [.prettyPrinted, .sortedKeys])
        // pygeoapi reads its configuration as YAML (JSON is YAML's flow style) and wants temporal extents as
        // datetime objects, which YAML makes only of unquoted timestamps: those strings lose their quotes.
        var text = String(decoding: json, as: UTF8.self)
        for collection in collections {
            guard let temporal = collection.temporal else { continue }
            for value in [temporal.begin, temporal.end] {
                text = text.replacingOccurrences(of: "\"\(value)\"", with: value)
            }
        }
        return Data(text.utf8)
    }

    /// Polls the landing page (`?f=json`) until it answers 200; fails early when pygeoapi exits.
    private static func waitForLandingPage(_ url: String, _ server: WatchedProcess, timeout: Duration = .seconds(60)) async throws {
        let client = try HTTPClient(logger: Logger(label: "pygeoapi-fixture") { _ in SwiftLogNoOpLogHandler() })
        let request = HTTPRequest(url: url + "/?f=json", options: HTTPRequestOptions(connectTimeout: .seconds(1), timeout: .seconds(5)))
        let deadline = ContinuousClock.now + timeout
        var failure: FixtureFailure?
        while failure == nil {
            if let response = try? await client.execute(request), response.status == 200 { break }
            if !server.isRunning {
                failure = FixtureFailure("pygeoapi exited: \(server.log.suffix(3_000))")
            } else if ContinuousClock.now >= deadline {
                failure = FixtureFailure("pygeoapi did not answer \(url) within \(timeout): \(server.log.suffix(3_000))")
            } else {
                try? await Task.sleep(for: .milliseconds(100))
            }
        }
        await client.shutdown()
        if let failure { throw failure }
    }

    /// What pygeoapi wrote to its log so far (errors only: the configuration sets level ERROR).
    package var log: String { server.log }

    /// Stops pygeoapi and deletes its configuration. A server nobody stops is stopped when the test process ends.
    package func stop() async {
        await server.stop()
    }
}
