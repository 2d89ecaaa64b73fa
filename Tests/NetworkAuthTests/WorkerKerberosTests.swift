import ChildProcessFixture
import Foundation
import NetworkAuthFixture
import SampleFeatureServer
import Testing

/// Kerberos through the worker's executable. libcurl's Kerberos identity
/// belongs to the process, so only a process of its own shows what the worker does at start: `query-worker run`
/// with a `negotiate` credential, started without `KRB5_CLIENT_KTNAME` or `KRB5CCNAME` (it must set them
/// itself), reaches the sample server behind apache2's mod_auth_gssapi with a private KDC, through an embedded
/// Kafka cluster of its own; requests go in with `query-worker query --wait --json`.
@Suite("Network authentication: Kerberos through the worker executable")
struct WorkerKerberosTests {
    @Test("A negotiate credential: the worker's ticket from the keytab reaches apache as the principal; a target outside its scope is authentication_required",
          .enabled(if: ApacheAuthServer.isKerberosAvailable, "krb5-kdc, krb5-admin-server, krb5-user and libapache2-mod-auth-gssapi are needed (scripts/setup-deps installs them)"))
    func negotiateThroughTheWorker() async throws {
        let executable = try #require(WorkerExecutable.path, "query-worker was not built")
        let sample = try await SampleFeatureServer.start(
            configuration: SampleServerConfiguration(parcelCount: 500, seed: 1), logger: NetworkAuthSupport.logger)
        do {
            try await KerberosRealm.with { realm in
                try await ApacheAuthServer.with(upstream: try NetworkAuthUpstream(origin: sample.rootURL), kerberos: realm) { apache in
                    try await WorkerExecutable.withCluster(executable) { bootstrap in
                        try await Self.check(executable, bootstrap: bootstrap, realm: realm, apache: apache, dataset: sample.dataset)
                    }
                }
            }
        } catch {
            await sample.shutdown()
            throw error
        }
        await sample.shutdown()
    }

    private static func check(
        _ executable: String, bootstrap: String, realm: KerberosRealm, apache: ApacheAuthServer, dataset: SampleDataset
    ) async throws {
        let services = apache.localhostOrigin + "/arcgis/rest/services/"
        // The credential covers the USA service only: the parcels behind the same front get nothing.
        let file = try WorkerExecutable.credentialsFile(#"""
            {"credentials": [{"name": "intranet", "kind": "password", "scheme": "negotiate",
              "scope": "\#(services)USA", "keytab": "\#(realm.clientKeytab)", "principal": "\#(KerberosRealm.clientPrincipal)"}]}
            """#)
        defer { try? FileManager.default.removeItem(atPath: file.folder) }
        let worker = try await WorkerExecutable.startWorker(
            executable, bootstrap: bootstrap, credentialsFile: file.path,
            environment: ["KRB5_CONFIG": realm.configPath], logDirectory: file.folder)
        do {
            async let covered = WorkerExecutable.query(
                executable, bootstrap: bootstrap, target: services + SampleLayer.cities.path, where: "ST = 'CA'")
            async let outside = WorkerExecutable.query(
                executable, bootstrap: bootstrap, target: services + SampleLayer.parcels.path, where: "1=1")
            let (succeeded, refused) = try await (covered, outside)

            let truth = try dataset.groundTruthObjectIDs(.cities, where: "ST = 'CA'")
            #expect(!truth.isEmpty)
            #expect(succeeded.status == "succeeded", "\(succeeded) \(apache.errorLog.suffix(1_000)) \(worker.log.suffix(2_000))")
            #expect(succeeded.objectIDs?.sorted() == truth)
            // apache authenticated the worker as the keytab's principal and proxied its query.
            let log = apache.accessLog()
            #expect(log.contains { $0.hasPrefix("200 /arcgis/rest/services/USA/") && $0.hasSuffix(" \(KerberosRealm.clientPrincipal)") },
                    "\(log.suffix(10))")

            #expect(refused.status == "failed", "\(refused)")
            #expect(refused.errorCode == "authentication_required", "\(refused)")
            #expect(log.contains { $0.hasPrefix("401 /arcgis/rest/services/LA_County_Parcels/") }, "\(log.suffix(10))")
            #expect(!log.contains { $0.hasPrefix("200 /arcgis/rest/services/LA_County_Parcels/") }, "\(log.suffix(10))")
        } catch {
            await worker.stop()
            throw error
        }
        await worker.stop()
    }
}
