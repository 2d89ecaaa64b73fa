import Foundation

/// Debian's nginx from Fixtures/nginx.conf.template: plain HTTP with Basic authentication under /basic/,
/// TLS with HTTP/2, and TLS that requires a client certificate, each on its own port.
struct NginxServer: Sendable {
    static let basicUser = "alice"
    static let basicPassword = "wonderland"

    let server: ForegroundServer
    let pki: TestPKI
    let httpPort: Int
    let httpsPort: Int
    let mtlsPort: Int

    var httpURL: String { "http://127.0.0.1:\(httpPort)" }
    var httpsURL: String { "https://127.0.0.1:\(httpsPort)" }
    var mtlsURL: String { "https://127.0.0.1:\(mtlsPort)" }

    /// Runs `body` with a fresh nginx (its own PKI, ports and directory), stopped afterwards.
    static func with<T>(_ body: (NginxServer) async throws -> T) async throws -> T {
        let nginx = try await start()
        do {
            let result = try await body(nginx)
            await nginx.server.stop()
            return result
        } catch {
            await nginx.server.stop()
            throw error
        }
    }

    static func start() async throws -> NginxServer {
        let executable = try Tools.require("nginx")
        let openssl = try Tools.require("openssl")
        let directory = try TemporaryDirectory(prefix: "nginx")
        do {
            let pki = try await TestPKI.make(in: directory)
            try directory.makeDirectory("www/basic")
            try directory.write("www/basic/secret.txt", "basic secret\n")
            let hash = try await ChildProcess.check(openssl, ["passwd", "-apr1", basicPassword])
            try directory.write("htpasswd", "\(basicUser):\(String(decoding: hash, as: UTF8.self))")
            let (server, ports) = try await ForegroundServer.start(executable, in: directory, portCount: 3) { ports in
                let config = try Fixtures.fill("nginx.conf.template", [
                    "DIR": directory.path,
                    "USER": Fixtures.runningAsRoot ? "user root root;" : "",
                    "HTTP_PORT": String(ports[0]),
                    "HTTPS_PORT": String(ports[1]),
                    "MTLS_PORT": String(ports[2]),
                ])
                try directory.write("nginx.conf", config)
                return ["-p", directory.path, "-c", "\(directory.path)/nginx.conf", "-g", "daemon off;"]
            }
            return NginxServer(server: server, pki: pki, httpPort: ports[0], httpsPort: ports[1], mtlsPort: ports[2])
        } catch {
            directory.remove()
            throw error
        }
    }

    /// One line of the access log: `$connection $connection_requests $server_port $server_protocol $status $request_uri`.
    struct AccessLogEntry: Hashable {
        var connection: String
        var port: Int
        var proto: String
        var status: Int
        var uri: String
    }

    func accessLog() -> [AccessLogEntry] {
        guard let data = FileManager.default.contents(atPath: "\(server.directory.path)/access.log") else { return [] }
        return String(decoding: data, as: UTF8.self).split(separator: "\n").compactMap { line in
            let fields = line.split(separator: " ")
            guard fields.count == 6, let port = Int(fields[2]), let status = Int(fields[4]) else { return nil }
            return AccessLogEntry(connection: String(fields[0]), port: port, proto: String(fields[3]), status: status, uri: String(fields[5]))
        }
    }
}

/// Debian's apache2 from Fixtures/apache-digest.conf.template: /digest/ behind mod_auth_digest, a real
/// Digest server.
struct ApacheDigestServer: Sendable {
    static let realm = "curlhttp-digest"
    static let user = "bob"
    static let password = "builder"

    let server: ForegroundServer
    let port: Int
    var baseURL: String { "http://127.0.0.1:\(port)" }

    static func with<T>(_ body: (ApacheDigestServer) async throws -> T) async throws -> T {
        let apache = try await start()
        do {
            let result = try await body(apache)
            await apache.server.stop()
            return result
        } catch {
            await apache.server.stop()
            throw error
        }
    }

    static func start() async throws -> ApacheDigestServer {
        let executable = try Tools.require("apache2")
        let openssl = try Tools.require("openssl")
        let directory = try TemporaryDirectory(prefix: "apache")
        do {
            try directory.makeDirectory("www/digest")
            try directory.write("www/digest/secret.txt", "digest secret\n")
            // htdigest format: user:realm:MD5(user:realm:password).
            let digest = try await ChildProcess.check(openssl, ["md5", "-r"], input: Array("\(user):\(realm):\(password)".utf8))
            let hash = String(decoding: digest, as: UTF8.self).split(separator: " ").first.map(String.init) ?? ""
            try directory.write("htdigest", "\(user):\(realm):\(hash)\n")
            let (server, ports) = try await ForegroundServer.start(executable, in: directory, portCount: 1) { ports in
                let config = try Fixtures.fill("apache-digest.conf.template", [
                    "DIR": directory.path,
                    "USER": Fixtures.runningAsRoot ? "User www-data\nGroup www-data" : "",
                    "PORT": String(ports[0]),
                ])
                try directory.write("apache.conf", config)
                return ["-f", "\(directory.path)/apache.conf", "-DFOREGROUND"]
            }
            return ApacheDigestServer(server: server, port: ports[0])
        } catch {
            directory.remove()
            throw error
        }
    }
}
