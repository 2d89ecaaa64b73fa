import BenchmarkSupport
import Foundation

/// The CPU benchmark's metrics side: a worker with its operations endpoint on, whose `/metrics` is fetched
/// (with curl, whose CPU is not the worker's) at a fixed interval while it works, as a Prometheus would, so the
/// side's CPU includes keeping the metrics and rendering the exposition.
final class ScrapedWorker: MeasuredWorker {
    private let worker: WorkerChild
    private let url: String
    private var scraping: Task<Int, Never>?

    init(_ worker: WorkerChild, port: Int) {
        self.worker = worker
        self.url = "http://127.0.0.1:\(port)/metrics"
    }

    var pid: Int32 { worker.pid }
    var logFile: String { worker.logFile }

    /// Starts fetching `/metrics` every `interval` until ``stop(timeout:)``.
    func startScraping(every interval: Duration) {
        let url = url
        scraping = Task.detached { await scrapeMetrics(url, every: interval) }
    }

    func checkAlive(_ what: String) throws { try worker.checkAlive(what) }

    /// Stops scraping (failing when no scrape was answered: then the side measured nothing it claims to), then
    /// the worker.
    @discardableResult
    func stop(timeout: Duration) async -> Int32? {
        scraping?.cancel()
        let answered = await scraping?.value ?? 0
        if answered == 0 { output("  WARNING: the metrics side's \(url) answered no scrape") }
        return await worker.stop(timeout: timeout)
    }
}

/// Fetches `url` every `interval` until cancelled; how many fetches were answered.
private func scrapeMetrics(_ url: String, every interval: Duration) async -> Int {
    var answered = 0
    while !Task.isCancelled {
        if await fetchOnce(url) { answered += 1 }
        try? await Task.sleep(for: interval)
    }
    return answered
}

/// One `curl -sf URL -o /dev/null`; whether it answered 2xx. Polls for the exit (Foundation's
/// `waitUntilExit()` spins a CPU on Linux, see ``LoggedChild``).
private func fetchOnce(_ url: String) async -> Bool {
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    curl.arguments = ["-sf", "--max-time", "2", "-o", "/dev/null", url]
    guard (try? curl.run()) != nil else { return false }
    while curl.isRunning { try? await Task.sleep(for: .milliseconds(10)) }
    return curl.terminationStatus == 0
}
