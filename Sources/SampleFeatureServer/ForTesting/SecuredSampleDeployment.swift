package import Logging

/// The sample server as a whole secured ArcGIS deployment, for tests: a portal, a server federated with it, a
/// standalone server with its own token service, and a second portal with a server of its own (so a token can be
/// "not federated"). Each on its own loopback origin, all serving one dataset.
package struct SecuredSampleDeployment: Sendable {
    package let authority: SampleTokenAuthority
    package let portal: SampleFeatureServer
    package let federated: SampleFeatureServer
    package let standalone: SampleFeatureServer
    package let otherAuthority: SampleTokenAuthority
    package let otherPortal: SampleFeatureServer
    package let otherFederated: SampleFeatureServer

    package var servers: [SampleFeatureServer] { [portal, federated, standalone, otherPortal, otherFederated] }

    /// The portal's generateToken URL.
    package var generateTokenURL: String { portal.rootURL + "/portal/sharing/rest/generateToken" }
    /// The portal's OAuth 2.0 endpoints' common prefix.
    package var oauthURL: String { portal.rootURL + "/portal/sharing/rest/oauth2" }
    package var portalURL: String { portal.rootURL + "/portal" }

    /// Starts the five servers, portals first (federated servers name their owner in `rest/info`). On failure
    /// the ones started are stopped.
    ///
    /// - Parameters:
    ///   - authority: the first portal's authority (users, clients, API keys); a default one with `knobs` if nil.
    ///   - standaloneAuthorizer: runs first on every request to the standalone server (a test's trigger).
    ///   - recentRequestLimit: how many recent requests each server's statistics keep.
    package static func start(
        dataset: SampleDataset, knobs: SampleSecurityKnobs = SampleSecurityKnobs(), authority: SampleTokenAuthority? = nil,
        standaloneAuthorizer: SampleServerAuthorizer? = nil, recentRequestLimit: Int = 1_000, logger: Logger
    ) async throws -> SecuredSampleDeployment {
        let authority = authority ?? SampleTokenAuthority(knobs: knobs)
        let other = SampleTokenAuthority()
        let roles: [(SampleTokenAuthority, SampleSecurityRole)] = [
            (authority, .portal), (authority, .federated), (authority, .standalone), (other, .portal), (other, .federated),
        ]
        var started: [SampleFeatureServer] = []
        do {
            for (owner, role) in roles {
                let configuration = SampleServerConfiguration(
                    authorizer: owner === authority && role == .standalone ? standaloneAuthorizer : nil,
                    security: SampleSecurity(authority: owner, role: role), recentRequestLimit: recentRequestLimit)
                started.append(try await SampleFeatureServer.start(configuration: configuration, dataset: dataset, logger: logger))
            }
        } catch {
            for server in started { await server.shutdown() }
            throw error
        }
        return SecuredSampleDeployment(
            authority: authority, portal: started[0], federated: started[1], standalone: started[2], otherAuthority: other,
            otherPortal: started[3], otherFederated: started[4])
    }

    /// Starts the deployment, runs `body`, and stops it whether `body` returns or throws.
    package static func with<T>(
        dataset: SampleDataset, knobs: SampleSecurityKnobs = SampleSecurityKnobs(), logger: Logger,
        _ body: (SecuredSampleDeployment) async throws -> T
    ) async throws -> T {
        let deployment = try await start(dataset: dataset, knobs: knobs, logger: logger)
        do {
            let result = try await body(deployment)
            await deployment.shutdown()
            return result
        } catch {
            await deployment.shutdown()
            throw error
        }
    }

    package func shutdown() async {
        for server in servers { await server.shutdown() }
    }
}
