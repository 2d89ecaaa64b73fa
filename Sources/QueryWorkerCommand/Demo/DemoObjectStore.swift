import Foundation

/// moto's S3 API, for the demo's one stored result (issue 31's claim check), when moto is installed: the demo
/// installs nothing beyond its build, so without moto it says how to get it and leaves the stored result out.
///
/// moto runs in a Python child (`ThreadedMotoServer` on a free loopback port, the bucket created with boto3,
/// which moto depends on) that ends when its standard input closes: when the demo stops, however it stops,
/// the store goes with it. The endpoint comes back through a file, polled without blocking a thread.
struct DemoObjectStore {
    let endpoint: String
    let bucket: String
    private let process: Process
    private let input: Pipe
    private let folder: URL

    /// The worker's AWS credentials for moto (which accepts any): passed to the worker's assembly as its
    /// environment, never set on the demo's process.
    static let environment = ["AWS_ACCESS_KEY_ID": "demo", "AWS_SECRET_ACCESS_KEY": "demo", "AWS_REGION": "us-east-1"]
    static let bucket = "demo-results"
    /// What to run to have the stored result in the demo.
    static let howToInstall =
        "pip install 'moto[server]' (or scripts/setup-deps test, which puts it in .venv; QUERY_WORKER_PYTHON picks a Python)"

    /// Why the demo runs without a store.
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// Starts moto with the first Python that has it: `QUERY_WORKER_PYTHON`, the repository's `.venv`, `python3`.
    static func start() async -> Result<DemoObjectStore, Unavailable> {
        guard let python = await pythonWithMoto() else {
            return .failure(Unavailable(description: "moto is not installed: \(howToInstall)"))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("demo-moto-\(UUID().uuidString.prefix(8))")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            // Not "moto.py": the script's folder comes first on sys.path, and that name would hide the package.
            let script = folder.appendingPathComponent("demo_store.py")
            try Data(launcher.utf8).write(to: script)
            let endpointFile = folder.appendingPathComponent("endpoint")
            let process = Process()
            process.executableURL = URL(fileURLWithPath: python)
            process.arguments = [script.path, endpointFile.path, bucket]
            let input = Pipe()
            process.standardInput = input
            process.standardOutput = FileHandle.nullDevice
            // moto's own log (one line per S3 call), kept in the folder: its end says why it stopped, if it does.
            let log = folder.appendingPathComponent("moto.log")
            _ = FileManager.default.createFile(atPath: log.path, contents: nil)
            process.standardError = try FileHandle(forWritingTo: log)
            try process.run()
            let store = DemoObjectStore(endpoint: "", bucket: bucket, process: process, input: input, folder: folder)
            for _ in 0..<300 {
                if let text = try? String(contentsOf: endpointFile, encoding: .utf8), text.hasPrefix("http://") {
                    return .success(DemoObjectStore(
                        endpoint: text.trimmingCharacters(in: .whitespacesAndNewlines), bucket: bucket, process: process, input: input,
                        folder: folder))
                }
                guard process.isRunning else { break }
                try await Task.sleep(for: .milliseconds(100))
            }
            let said = (try? String(contentsOf: folder.appendingPathComponent("moto.log"), encoding: .utf8)) ?? ""
            let last = said.split(separator: "\n").suffix(3).joined(separator: " | ")
            await store.stop()
            return .failure(Unavailable(
                description: "moto (\(python)) did not start within 30 s" + (last.isEmpty ? "" : ": \(last)")))
        } catch {
            try? FileManager.default.removeItem(at: folder)
            return .failure(Unavailable(description: "moto could not be started: \(error)"))
        }
    }

    /// Closes moto's input (it stops) and removes its folder.
    func stop() async {
        try? input.fileHandleForWriting.close()
        for _ in 0..<100 where process.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: folder)
    }

    private static func pythonWithMoto() async -> String? {
        var candidates: [String] = []
        if let chosen = ProcessInfo.processInfo.environment["QUERY_WORKER_PYTHON"] { candidates.append(chosen) }
        candidates.append(FileManager.default.currentDirectoryPath + "/.venv/bin/python")
        candidates += ["/usr/bin/python3", "/usr/local/bin/python3"]
        for python in candidates where FileManager.default.isExecutableFile(atPath: python) {
            let check = Process()
            check.executableURL = URL(fileURLWithPath: python)
            check.arguments = ["-c", "import moto.server, boto3"]
            check.standardOutput = FileHandle.nullDevice
            check.standardError = FileHandle.nullDevice
            guard (try? check.run()) != nil else { continue }
            while check.isRunning { try? await Task.sleep(for: .milliseconds(50)) }
            if check.terminationStatus == 0 { return python }
        }
        return nil
    }

    /// moto on a free port with the bucket made; the endpoint written to the file named first (renamed into
    /// place, so the demo never reads half of it); stops at the end of its input.
    private static let launcher = """
        import os, sys
        import boto3
        from moto.server import ThreadedMotoServer
        server = ThreadedMotoServer(ip_address="127.0.0.1", port=0, verbose=False)
        server.start()
        host, port = server.get_host_and_port()
        endpoint = f"http://{host}:{port}"
        boto3.client("s3", endpoint_url=endpoint, region_name="us-east-1", aws_access_key_id="demo",
                     aws_secret_access_key="demo").create_bucket(Bucket=sys.argv[2])
        with open(sys.argv[1] + ".part", "w") as out:
            out.write(endpoint)
        os.rename(sys.argv[1] + ".part", sys.argv[1])
        sys.stdin.read()
        server.stop()
        """
}
