import ChildProcessFixture
import Foundation

/// A throw-away PostgreSQL cluster with PostGIS from Debian's packages, on a free loopback port, for the
/// OGC API Features tests' pygeoapi PostgreSQL provider (the provider that really evaluates CQL).
///
/// `initdb` runs in a fresh temporary directory as the `postgres` OS user when the tests run as root
/// (PostgreSQL refuses root; otherwise as the current user); the server listens on 127.0.0.1 and a socket
/// directory inside it, with trust authentication and durability off (fsync, synchronous commit, full-page
/// writes): test data is loaded once and thrown away.
/// The server runs under a ``WatchedProcess``: ``stop()``, or the test process ending, stops it (fast
/// shutdown) and deletes the cluster.
package struct PostGISDatabase: Sendable {
    /// Always `127.0.0.1`.
    package let host: String
    package let port: Int
    /// The database the tables are in (PostGIS is enabled in it).
    package let databaseName: String
    /// The superuser, `postgres`; any password is accepted.
    package let user: String
    private let server: WatchedProcess
    private let bin: String

    /// The libpq connection string ogr2ogr and psql take.
    package var connectionString: String { "host=\(host) port=\(port) dbname=\(databaseName) user=\(user)" }

    /// Creates the cluster, starts the server, creates `databaseName` and `CREATE EXTENSION postgis` in it.
    /// `ownedDirectories` (e.g. where the files to load are) are handed to the `postgres` user and deleted
    /// with the cluster.
    package static func start(databaseName: String = "ogc", ownedDirectories: [String] = []) async throws -> PostGISDatabase {
        let bin = try FixtureTools.require("PostgreSQL (postgresql)", FixtureTools.postgresBin)
        let directory = try FixtureTools.makeDirectory(prefix: "postgis")
        let cluster = "\(directory)/cluster"
        do {
            try FileManager.default.createDirectory(atPath: cluster, withIntermediateDirectories: false)
            // As root: owned by postgres, so that its watchdog (running as postgres) can delete all of it.
            let runningAsRoot = geteuid() == 0
            if runningAsRoot {
                try await FixtureTools.run(["/bin/chown", "postgres:postgres", directory, cluster] + ownedDirectories)
            }
            let port = try FixtureTools.unusedPort()
            // initdb runs under the watchdog too, so that a test process dying during it leaves nothing behind.
            let script = """
                "$1/initdb" -D "$2/data" -U postgres -A trust --no-sync -E UTF8 --locale=C --no-instructions >/dev/null || exit 1
                exec "$1/postgres" -D "$2/data" -p "$3" -k "$2" -c listen_addresses=127.0.0.1 -c fsync=off \\
                    -c synchronous_commit=off -c full_page_writes=off -c max_connections=50
                """
            let server = try WatchedProcess(
                name: "postgres", ["/bin/sh", "-c", script, "postgres-launch", bin, cluster, String(port)],
                prefix: runningAsRoot ? ["/usr/bin/setpriv", "--reuid=postgres", "--regid=postgres", "--init-groups", "--reset-env"] : [],
                // SIGINT is PostgreSQL's fast shutdown; SIGTERM would wait for pygeoapi's pooled connections.
                stopSignal: "INT", removeOnExit: [directory] + ownedDirectories, logDirectory: directory)
            let database = PostGISDatabase(host: "127.0.0.1", port: port, databaseName: databaseName, user: "postgres", server: server, bin: bin)
            do {
                try await database.waitUntilReady()
                try await database.psql("CREATE DATABASE \(databaseName)", database: "postgres")
                try await database.psql("CREATE EXTENSION postgis")
                return database
            } catch {
                await server.stop()
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw error
        }
    }

    private init(host: String, port: Int, databaseName: String, user: String, server: WatchedProcess, bin: String) {
        self.host = host
        self.port = port
        self.databaseName = databaseName
        self.user = user
        self.server = server
        self.bin = bin
    }

    /// Polls `pg_isready` until the server accepts connections (initdb takes 1 to 6 s, depending on load).
    private func waitUntilReady(timeout: Duration = .seconds(60)) async throws {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            guard server.isRunning else { throw FixtureFailure("postgres exited: \(server.log.suffix(2_000))") }
            if (try? await FixtureTools.run(["\(bin)/pg_isready", "-q", "-h", host, "-p", String(port)], timeout: .seconds(5))) != nil {
                return
            }
            try await Task.sleep(for: .milliseconds(50))
        }
        throw FixtureFailure("postgres did not accept connections within \(timeout): \(server.log.suffix(2_000))")
    }

    /// Runs SQL with psql (stopping at the first error) and returns what it printed (unaligned, tuples only).
    @discardableResult
    package func psql(_ sql: String, database: String? = nil) async throws -> String {
        let psql = try FixtureTools.require("psql (postgresql-client)", FixtureTools.find("psql") ?? "\(bin)/psql")
        return try await FixtureTools.run([
            psql, "-X", "-q", "-A", "-t", "-v", "ON_ERROR_STOP=1", "-h", host, "-p", String(port), "-U", user,
            "-d", database ?? databaseName, "-c", sql,
        ])
    }

    /// Loads a GeoJSON file into a new table with ogr2ogr (gdal-bin): the features' integer `id` becomes the
    /// primary key column `id`, the geometry column is `geom` (EPSG:4326, GiST-indexed), and property names
    /// keep their case (no laundering), so a filter names the same fields as in the GeoJSON.
    package func load(geoJSONFile path: String, table: String) async throws {
        let ogr2ogr = try FixtureTools.require("ogr2ogr (gdal-bin)", FixtureTools.find("ogr2ogr"))
        try await FixtureTools.run([
            ogr2ogr, "-f", "PostgreSQL", "PG:\(connectionString)", path, "-nln", table, "-preserve_fid",
            "-lco", "FID=id", "-lco", "GEOMETRY_NAME=geom", "-lco", "LAUNDER=NO", "-lco", "SPATIAL_INDEX=GIST",
        ])
    }

    /// Stops the server (fast shutdown) and deletes the cluster. A database nobody stops is stopped and
    /// deleted when the test process ends.
    package func stop() async {
        await server.stop()
    }
}
