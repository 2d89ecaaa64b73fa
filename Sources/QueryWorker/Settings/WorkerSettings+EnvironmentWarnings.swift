extension WorkerSettings.Loaded {
    /// One warning per `QUERY_WORKER_*` variable that sets nothing, with the nearest real variable when one is
    /// a couple of edits away: a misspelled `--set` key stops the worker with "did you mean", and a misspelled
    /// variable must not pass in silence either. Warnings, not errors, because a platform may set variables
    /// with the prefix; Kubernetes service links (`QUERY_WORKER_SERVICE_HOST`, `QUERY_WORKER_PORT_…`) and the
    /// variables of this repository's scripts are left out.
    package var environmentWarnings: [String] {
        ignoredEnvironmentVariables.filter {
            !SettingsEnvironmentNames.isServiceLink($0) && !SettingsEnvironmentNames.toolingVariables.contains($0)
        }.map { name in
            "environment variable \(name) is not a setting and is ignored"
                + (SettingsEnvironmentNames.suggestion(for: name).map { "; did you mean \($0)?" } ?? "")
        }
    }
}

/// The names of the variables the worker reads, for suggestions.
enum SettingsEnvironmentNames {
    static var known: [String] {
        SettingsKey.all.map(\.environmentVariable) + [SettingsKey.configFileVariable, SettingsKey.namedQueriesVariable]
    }

    /// The known variable nearest to `name`, when it is close enough to be a typo (two edits, or a quarter of
    /// the name after the prefix for long names).
    static func suggestion(for name: String) -> String? {
        let rest = name.dropFirst(SettingsKey.environmentPrefix.count)
        let scored = known.map { candidate in
            (candidate, Suggestion.distance(name, candidate))
        }
        guard let best = scored.min(by: { $0.1 < $1.1 }), best.1 <= max(2, rest.count / 4) else { return nil }
        return best.0
    }

    /// Variables read by `scripts/test` and the test suites, not by the worker: set in every test run.
    static let toolingVariables: Set<String> = [
        "QUERY_WORKER_PYTHON", "QUERY_WORKER_REQUIRE_INTEROP", "QUERY_WORKER_TRANSACTIONAL_KAFKA",
        "QUERY_WORKER_REQUIRE_TRANSACTIONAL_KAFKA", "QUERY_WORKER_REQUIRE_EXAMPLES",
    ]

    /// Kubernetes' service-link variables of a service named `query-worker`: `QUERY_WORKER_SERVICE_HOST`,
    /// `QUERY_WORKER_SERVICE_PORT[_NAME]`, `QUERY_WORKER_PORT[_…]`.
    static func isServiceLink(_ name: String) -> Bool {
        let rest = name.dropFirst(SettingsKey.environmentPrefix.count)
        return rest == "SERVICE_HOST" || rest.hasPrefix("SERVICE_PORT") || rest == "PORT" || rest.hasPrefix("PORT_")
    }
}
