import Foundation
import Glibc

/// A private MIT Kerberos realm: `krb5kdc -n` on a loopback port with its configuration, database and
/// keytabs in a temporary folder (`KRB5_CONFIG`, `KRB5_KDC_PROFILE`), a service principal `HTTP/localhost`
/// for an acceptor (``ApacheAuthServer``) and a client principal with its own keytab, so a client
/// authenticates without kinit or a password.
///
/// The SPN names the host: clients must ask for `http://localhost:PORT` (an IP address fails).
package struct KerberosRealm: Sendable {
    package static let realm = "QUERYWORKER.TEST"
    package static let servicePrincipal = "HTTP/localhost@\(realm)"
    package static let clientPrincipal = "analyst@\(realm)"

    package let kdcPort: Int
    /// The krb5.conf clients and acceptors must read (`KRB5_CONFIG`).
    package let configPath: String
    /// The keytab of `HTTP/localhost`, for the acceptor.
    package let serviceKeytab: String
    /// The keytab of ``clientPrincipal``: `KRB5_CLIENT_KTNAME=FILE:<this>` gets a ticket without kinit.
    package let clientKeytab: String
    let kdc: ServerProcess
    let directory: String

    /// Whether the KDC's programs are installed (or `QUERY_WORKER_REQUIRE_INTEROP=1` demands the test run).
    package static var isAvailable: Bool { NetworkAuthTools.available("krb5kdc", "kdb5_util", "kadmin.local") }

    package static func with<T>(_ body: (KerberosRealm) async throws -> T) async throws -> T {
        try await withStarted(start, stop: { await $0.stop() }, body)
    }

    package static func start() async throws -> KerberosRealm {
        let krb5kdc = try NetworkAuthTools.require("krb5kdc")
        let kdbUtil = try NetworkAuthTools.require("kdb5_util")
        let kadmin = try NetworkAuthTools.require("kadmin.local")
        let directory = try NetworkAuthTools.makeDirectory(prefix: "kdc")
        let environment = ["KRB5_CONFIG": "\(directory)/krb5.conf", "KRB5_KDC_PROFILE": "\(directory)/kdc.conf"]
        do {
            // The database does not depend on the port: made once, before the KDC's port is picked.
            try NetworkAuthTools.write(kdcConfiguration(directory: directory, port: 0), to: "\(directory)/kdc.conf")
            try NetworkAuthTools.write(clientConfiguration(kdcPort: 0), to: "\(directory)/krb5.conf")
            try await makeDatabase(kdbUtil: kdbUtil, kadmin: kadmin, directory: directory, environment: environment)
            let kdc = try await ServerProcess.start(name: "krb5kdc", in: directory, portCount: 1, environment: environment) { ports in
                try NetworkAuthTools.write(clientConfiguration(kdcPort: ports[0]), to: "\(directory)/krb5.conf")
                try NetworkAuthTools.write(kdcConfiguration(directory: directory, port: ports[0]), to: "\(directory)/kdc.conf")
                return [krb5kdc, "-n"]
            }
            return KerberosRealm(
                kdcPort: kdc.ports[0], configPath: "\(directory)/krb5.conf", serviceKeytab: "\(directory)/http.keytab",
                clientKeytab: "\(directory)/client.keytab", kdc: kdc, directory: directory
            )
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    package func stop() async {
        await kdc.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Makes libcurl's GSS-API in this process authenticate as ``clientPrincipal`` from its keytab: libcurl has
    /// no per-handle Kerberos identity, so this is process-wide, as in the worker (set before any request).
    package func useClientKeytabInThisProcess() {
        setenv("KRB5_CONFIG", configPath, 1)
        setenv("KRB5_CLIENT_KTNAME", "FILE:\(clientKeytab)", 1)
        setenv("KRB5CCNAME", "MEMORY:network-auth-tests", 1)
    }

    /// The KDC's database, principals and keytabs.
    private static func makeDatabase(kdbUtil: String, kadmin: String, directory: String, environment: [String: String]) async throws {
        try await NetworkAuthTools.run([kdbUtil, "create", "-s", "-r", realm, "-P", "network-auth-master"], environment: environment)
        for command in [
            "addprinc -randkey HTTP/localhost", "addprinc -randkey analyst",
            "ktadd -k \(directory)/http.keytab HTTP/localhost", "ktadd -k \(directory)/client.keytab analyst",
        ] {
            try await NetworkAuthTools.run([kadmin, "-r", realm, "-q", command], environment: environment)
        }
        for keytab in ["http.keytab", "client.keytab"] {
            // The acceptor (apache2's workers) may run as another user.
            try FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: "\(directory)/\(keytab)")
        }
    }

    static func clientConfiguration(kdcPort: Int) -> String {
        """
        [libdefaults]
            default_realm = \(realm)
            dns_lookup_realm = false
            dns_lookup_kdc = false
            rdns = false
            dns_canonicalize_hostname = false
            udp_preference_limit = 1
        [realms]
            \(realm) = {
                kdc = 127.0.0.1:\(kdcPort)
            }
        [domain_realm]
            localhost = \(realm)
        """
    }

    static func kdcConfiguration(directory: String, port: Int) -> String {
        """
        [kdcdefaults]
            kdc_ports = \(port)
            kdc_tcp_ports = \(port)
        [realms]
            \(realm) = {
                database_name = \(directory)/principal
                key_stash_file = \(directory)/stash
                acl_file = \(directory)/kadm5.acl
                supported_enctypes = aes256-cts-hmac-sha1-96:normal
            }
        [logging]
            kdc = FILE:\(directory)/kdc.log
        """
    }
}
