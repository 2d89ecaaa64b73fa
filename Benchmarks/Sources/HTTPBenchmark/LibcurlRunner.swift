import BenchmarkSupport
import Foundation

/// Runs the libcurl-alone reference (`Benchmarks/c/curl_multi_bench.c`) and reads its `RESULT ...` line.
struct LibcurlRunner: Sendable {
    let executable: String
    let url: String
    let expectedBodyBytes: Int
    /// `perform` (curl_multi_perform + curl_multi_poll, as CurlHTTP) or `socket` (curl_multi_socket_action + epoll).
    let loop: String
    /// `reset` (every option set again per request, as CurlHTTP) or `reuse`.
    let handles: String
    let serverPID: Int32?

    func run(concurrency: Int, seconds: Int, warmup: Double) async throws -> Measurement {
        let arguments = [url, String(concurrency), String(seconds), String(warmup), loop, handles, String(expectedBodyBytes)]
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let stdout = Pipe()
        process.standardOutput = stdout
        process.standardError = FileHandle.standardError
        let reader = Task.detached { stdout.fileHandleForReading.readDataToEndOfFile() }
        // The server's CPU over the timed window only: sampled when the warm-up should be over.
        let serverSampler = Task<Double?, Never> {
            try? await Task.sleep(for: .seconds(warmup))
            return serverPID.flatMap(processCPUSeconds(pid:))
        }
        let status: Int32 = try await PeerProcess.run(process)
        let serverAfter = serverPID.flatMap(processCPUSeconds(pid:))
        let serverBefore = await serverSampler.value
        let text = String(decoding: await reader.value, as: UTF8.self)
        guard status == 0 else {
            throw BenchmarkError("curl_multi_bench \(arguments.joined(separator: " ")) exited with status \(status): \(text)")
        }
        let fields = try PeerProcess.resultFields(text, program: "curl_multi_bench")
        guard let requests = fields["requests"].flatMap({ Int($0) }),
            let elapsed = fields["elapsed_s"].flatMap({ Double($0) }),
            let p50 = fields["p50_ms"].flatMap({ Double($0) }),
            let p99 = fields["p99_ms"].flatMap({ Double($0) }),
            let cpu = fields["cpu_s"].flatMap({ Double($0) })
        else {
            throw BenchmarkError("cannot parse curl_multi_bench's output: \(fields)")
        }
        var serverCPU: Double?
        if let serverBefore, let serverAfter { serverCPU = serverAfter - serverBefore }
        return Measurement(
            requests: requests, seconds: elapsed, p50Milliseconds: p50, p99Milliseconds: p99, clientCPUSeconds: cpu,
            serverCPUSeconds: serverCPU)
    }
}
