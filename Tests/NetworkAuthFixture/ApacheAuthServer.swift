import Foundation

/// Debian's apache2 in a temporary folder on one loopback port, two name-based virtual hosts:
/// - `127.0.0.1` (``origin``): Digest (mod_auth_digest), `/digest/secret.txt`;
/// - `localhost` (``localhostOrigin``, when started with a ``KerberosRealm``): Negotiate, Kerberos only
///   (mod_auth_gssapi with the realm's `HTTP/localhost` keytab), `/negotiate/secret.txt`.
///
/// With a ``NetworkAuthUpstream``, its paths are reverse-proxied on both hosts behind that host's
/// authentication (`ProxyPreserveHost`; the front's `Authorization` is not passed on).
package struct ApacheAuthServer: Sendable {
    package static let digestRealm = "network-auth-digest"
    package static let digestUser = "bob"
    package static let digestPassword = "builder"
    package static let digestBody = "digest secret\n"
    package static let negotiateBody = "kerberos secret\n"

    package let port: Int
    let server: ServerProcess
    let directory: String

    /// By address: for Digest.
    package var origin: String { "http://127.0.0.1:\(port)" }
    /// By name, as the SPN `HTTP/localhost` requires: for Negotiate.
    package var localhostOrigin: String { "http://localhost:\(port)" }
    package var digestFileURL: String { origin + "/digest/secret.txt" }
    package var negotiateFileURL: String { localhostOrigin + "/negotiate/secret.txt" }

    /// Whether apache2 and openssl are installed (or `QUERY_WORKER_REQUIRE_INTEROP=1` demands the test run).
    package static var isAvailable: Bool { NetworkAuthTools.available("apache2", "openssl") }
    /// ``isAvailable``, the KDC's tools and mod_auth_gssapi (libapache2-mod-auth-gssapi).
    package static var isKerberosAvailable: Bool {
        NetworkAuthTools.interopRequired
            || (isAvailable && KerberosRealm.isAvailable && NetworkAuthTools.apacheModuleInstalled("mod_auth_gssapi.so"))
    }

    package static func with<T>(
        upstream: NetworkAuthUpstream? = nil, kerberos: KerberosRealm? = nil, _ body: (ApacheAuthServer) async throws -> T
    ) async throws -> T {
        try await withStarted({ try await start(upstream: upstream, kerberos: kerberos) }, stop: { await $0.stop() }, body)
    }

    package static func start(upstream: NetworkAuthUpstream? = nil, kerberos: KerberosRealm? = nil) async throws -> ApacheAuthServer {
        let executable = try NetworkAuthTools.require("apache2")
        let openssl = try NetworkAuthTools.require("openssl")
        if kerberos != nil, !NetworkAuthTools.apacheModuleInstalled("mod_auth_gssapi.so") {
            throw NetworkAuthFixtureFailure("mod_auth_gssapi is not installed (libapache2-mod-auth-gssapi; scripts/setup-deps installs it)")
        }
        let directory = try NetworkAuthTools.makeDirectory(prefix: "apache")
        do {
            try NetworkAuthTools.write(digestBody, to: "\(directory)/www/digest/secret.txt")
            try NetworkAuthTools.write(negotiateBody, to: "\(directory)/www/negotiate/secret.txt")
            // htdigest: user:realm:MD5(user:realm:password).
            let hash = try await NetworkAuthTools.run(
                ["/bin/sh", "-c", "printf '%s' \"$1\" | \"$2\" md5 -r", "md5", "\(digestUser):\(digestRealm):\(digestPassword)", openssl]
            )
            let digest = hash.split(separator: " ").first.map(String.init) ?? ""
            try NetworkAuthTools.write("\(digestUser):\(digestRealm):\(digest)\n", to: "\(directory)/htdigest")
            let environment = kerberos.map { ["KRB5_CONFIG": $0.configPath, "KRB5RCACHETYPE": "none"] }
            let server = try await ServerProcess.start(name: "apache2", in: directory, portCount: 1, environment: environment) { ports in
                let config = configuration(directory: directory, port: ports[0], upstream: upstream, kerberos: kerberos)
                try NetworkAuthTools.write(config, to: "\(directory)/apache.conf")
                return [executable, "-f", "\(directory)/apache.conf", "-DFOREGROUND"]
            }
            return ApacheAuthServer(port: server.ports[0], server: server, directory: directory)
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    package func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// apache2's access log so far, one `STATUS PATH USER` line a request (the user is the authenticated
    /// one: `bob`, or the Kerberos client principal; `-` before authentication).
    package func accessLog() -> [String] {
        let text = (try? String(contentsOfFile: "\(directory)/access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    /// apache2's error log so far (mod_auth_gssapi explains refusals there).
    package var errorLog: String { (try? String(contentsOfFile: "\(directory)/error.log", encoding: .utf8)) ?? "" }

    static func configuration(directory: String, port: Int, upstream: NetworkAuthUpstream?, kerberos: KerberosRealm?) -> String {
        let modules = NetworkAuthTools.apacheModules
        var text = """
            ServerRoot "\(directory)"
            ServerName localhost
            Listen 127.0.0.1:\(port)
            PidFile "\(directory)/apache.pid"
            ErrorLog "\(directory)/error.log"
            LogLevel warn
            LogFormat "%>s %U %u" brief
            CustomLog "\(directory)/access.log" brief
            DefaultRuntimeDir "\(directory)"
            Mutex file:\(directory) default
            \(NetworkAuthTools.runningAsRoot ? "User www-data\nGroup www-data" : "")
            LoadModule mpm_event_module \(modules)/mod_mpm_event.so
            LoadModule authn_core_module \(modules)/mod_authn_core.so
            LoadModule authn_file_module \(modules)/mod_authn_file.so
            LoadModule authz_core_module \(modules)/mod_authz_core.so
            LoadModule authz_user_module \(modules)/mod_authz_user.so
            LoadModule auth_digest_module \(modules)/mod_auth_digest.so
            LoadModule proxy_module \(modules)/mod_proxy.so
            LoadModule proxy_http_module \(modules)/mod_proxy_http.so
            LoadModule headers_module \(modules)/mod_headers.so
            StartServers 1
            ServerLimit 1
            ThreadsPerChild 8
            MaxRequestWorkers 8
            MinSpareThreads 1
            MaxSpareThreads 8
            KeepAlive On
            DocumentRoot "\(directory)/www"
            <Directory "\(directory)/www">
                Require all granted
            </Directory>
            \(virtualHost("127.0.0.1", port: port, staticPath: "/digest/", authentication: digest(directory), upstream: upstream))

            """
        if let kerberos {
            text += """
                LoadModule auth_gssapi_module \(modules)/mod_auth_gssapi.so
                \(virtualHost("localhost", port: port, staticPath: "/negotiate/", authentication: gssapi(kerberos), upstream: upstream))

                """
        }
        return text
    }

    /// One name-based virtual host: `authentication` on its static folder and on every proxied path.
    static func virtualHost(_ name: String, port: Int, staticPath: String, authentication: String, upstream: NetworkAuthUpstream?) -> String {
        var locations = [staticPath]
        var proxy = ""
        if let upstream {
            locations += upstream.paths
            // Headers are edited after authentication (fixups): the front's credentials stay at the front.
            proxy = "ProxyPreserveHost On\nRequestHeader unset Authorization\n"
                + upstream.paths.map { "ProxyPass \"\($0)\" \"\(upstream.origin)\($0)\"" }.joined(separator: "\n")
        }
        let guarded = locations.map { "<Location \"\($0)\">\n\(authentication)\n</Location>" }.joined(separator: "\n")
        return "<VirtualHost 127.0.0.1:\(port)>\nServerName \(name)\n\(proxy)\n\(guarded)\n</VirtualHost>"
    }

    static func digest(_ directory: String) -> String {
        """
        AuthType Digest
        AuthName "\(digestRealm)"
        AuthDigestProvider file
        AuthUserFile "\(directory)/htdigest"
        Require valid-user
        """
    }

    static func gssapi(_ kerberos: KerberosRealm) -> String {
        """
        AuthType GSSAPI
        AuthName "network-auth-kerberos"
        GssapiCredStore keytab:\(kerberos.serviceKeytab)
        GssapiAllowedMech krb5
        GssapiBasicAuth Off
        Require valid-user
        """
    }
}
