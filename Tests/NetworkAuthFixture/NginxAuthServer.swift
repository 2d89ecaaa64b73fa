import Foundation

/// Debian's nginx in a temporary folder, three loopback ports:
/// - plain HTTP, `/basic/` behind Basic authentication (``basicUser``/``basicPassword``);
/// - TLS with the private CA's server certificate for 127.0.0.1 and localhost, HTTP/2 offered by ALPN;
/// - TLS that requires a client certificate signed by the private CA (`ssl_verify_client on`).
///
/// Each serves a static file and, when started with a ``NetworkAuthUpstream``, reverse-proxies its paths to it
/// behind the port's authentication, so a test can put the sample feature server behind it: with the
/// default paths, `httpOrigin + "/arcgis/rest/services/..."` is the sample server's ArcGIS face behind Basic.
package struct NginxAuthServer: Sendable {
    package static let basicUser = "alice"
    package static let basicPassword = "wonderland"
    /// The body of the static files, so a test can tell them from an error page.
    package static let basicBody = "basic secret\n"
    package static let tlsBody = "tls file\n"

    package let certificates: TestCertificateAuthority
    package let httpPort: Int
    package let httpsPort: Int
    package let mtlsPort: Int
    let server: ServerProcess
    let directory: String

    package var httpOrigin: String { "http://127.0.0.1:\(httpPort)" }
    package var httpsOrigin: String { "https://127.0.0.1:\(httpsPort)" }
    package var mtlsOrigin: String { "https://127.0.0.1:\(mtlsPort)" }
    /// A static file behind Basic authentication.
    package var basicFileURL: String { httpOrigin + "/basic/secret.txt" }
    /// A static file over TLS.
    package var tlsFileURL: String { httpsOrigin + "/files/tls.txt" }
    /// Over TLS with a client certificate: answers `client <subject DN>`.
    package var mtlsWhoAmIURL: String { mtlsOrigin + "/whoami" }

    /// Whether nginx and openssl are installed (or `QUERY_WORKER_REQUIRE_INTEROP=1` demands the test run).
    package static var isAvailable: Bool { NetworkAuthTools.available("nginx", "openssl") }

    /// Runs `body` with a fresh nginx (its own PKI, ports and folder), stopped and removed afterwards.
    package static func with<T>(upstream: NetworkAuthUpstream? = nil, _ body: (NginxAuthServer) async throws -> T) async throws -> T {
        try await withStarted({ try await start(upstream: upstream) }, stop: { await $0.stop() }, body)
    }

    package static func start(upstream: NetworkAuthUpstream? = nil) async throws -> NginxAuthServer {
        let executable = try NetworkAuthTools.require("nginx")
        let openssl = try NetworkAuthTools.require("openssl")
        let directory = try NetworkAuthTools.makeDirectory(prefix: "nginx")
        do {
            let certificates = try await TestCertificateAuthority.make(in: directory)
            try NetworkAuthTools.write(basicBody, to: "\(directory)/www/basic/secret.txt")
            try NetworkAuthTools.write(tlsBody, to: "\(directory)/www/files/tls.txt")
            let hash = try await NetworkAuthTools.run([openssl, "passwd", "-apr1", basicPassword])
            try NetworkAuthTools.write("\(basicUser):\(hash.trimmingCharacters(in: .whitespacesAndNewlines))\n", to: "\(directory)/htpasswd")
            let server = try await ServerProcess.start(name: "nginx", in: directory, portCount: 3) { ports in
                let config = configuration(directory: directory, certificates: certificates, ports: ports, upstream: upstream)
                try NetworkAuthTools.write(config, to: "\(directory)/nginx.conf")
                return [executable, "-p", directory, "-c", "\(directory)/nginx.conf", "-g", "daemon off;"]
            }
            return NginxAuthServer(
                certificates: certificates, httpPort: server.ports[0], httpsPort: server.ports[1], mtlsPort: server.ports[2],
                server: server, directory: directory
            )
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    package func stop() async {
        await server.stop()
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// nginx's access log so far: one line per request, `$status $request_uri $remote_user`.
    package func accessLog() -> [String] {
        let text = (try? String(contentsOfFile: "\(directory)/access.log", encoding: .utf8)) ?? ""
        return text.split(separator: "\n").map(String.init)
    }

    static func configuration(directory: String, certificates: TestCertificateAuthority, ports: [Int], upstream: NetworkAuthUpstream?) -> String {
        // `return` would answer before auth_basic runs: /basic/ serves files instead.
        func proxy(auth: String = "") -> String {
            guard let upstream else { return "" }
            // No URI after the origin: nginx passes the request's own path and query.
            return upstream.paths.map { path in
                """
                location \(path) {
                    \(auth)
                    proxy_pass \(upstream.origin);
                    proxy_set_header Host $http_host;
                    proxy_set_header Authorization "";
                    proxy_http_version 1.1;
                }
                """
            }.joined(separator: "\n")
        }
        let basicAuth = "auth_basic \"network-auth\"; auth_basic_user_file \(directory)/htpasswd;"
        let tls = "ssl_certificate \(certificates.serverCertificate); ssl_certificate_key \(certificates.serverKey);"
        return """
            \(NetworkAuthTools.runningAsRoot ? "user root root;" : "")
            worker_processes 1;
            pid \(directory)/nginx.pid;
            error_log \(directory)/error.log warn;
            events { worker_connections 256; }
            http {
                log_format brief '$status $request_uri $remote_user';
                access_log \(directory)/access.log brief;
                client_body_temp_path \(directory)/client_body;
                proxy_temp_path \(directory)/proxy;
                fastcgi_temp_path \(directory)/fastcgi;
                uwsgi_temp_path \(directory)/uwsgi;
                scgi_temp_path \(directory)/scgi;
                default_type text/plain;
                root \(directory)/www;
                server {
                    listen 127.0.0.1:\(ports[0]);
                    location /basic/ { \(basicAuth) }
                \(proxy(auth: basicAuth))
                }
                server {
                    listen 127.0.0.1:\(ports[1]) ssl http2;
                    \(tls)
                \(proxy())
                }
                server {
                    listen 127.0.0.1:\(ports[2]) ssl;
                    \(tls)
                    ssl_client_certificate \(certificates.caCertificate);
                    ssl_verify_client on;
                    location = /whoami { return 200 "client $ssl_client_s_dn\\n"; }
                \(proxy())
                }
            }
            """
    }
}
