import BenchmarkSupport

/// Peak and current resident set of one worker process, in KiB.
struct MemoryFigures {
    var peakKiB: Int
    var rssKiB: Int
}

/// What one memory run of one side measured.
struct MemoryRun {
    /// A worker joined to an empty topic, after the idle seconds.
    var idle: MemoryFigures
    /// A worker with the backlog waiting and max-in-flight running, after the settle seconds.
    var loaded = MemoryFigures(peakKiB: 0, rssKiB: 0)
    /// Where the loaded worker's resident memory sat.
    var maps: MemoryMaps?
    var threads: Int?

    init(idle: MemoryFigures) {
        self.idle = idle
    }

    func summary(inFlight: Int) -> String {
        "idle VmHWM \(mb(idle.peakKiB)) MB VmRSS \(mb(idle.rssKiB)) MB; loaded VmHWM \(mb(loaded.peakKiB)) MB "
            + "VmRSS \(mb(loaded.rssKiB)) MB (\(format(Double(loaded.peakKiB - idle.peakKiB) * 1024 / Double(inFlight) / 1000, 1)) "
            + "kB per running request above idle); \(threads.map { "\($0) threads; " } ?? "")\(maps?.summary ?? "no smaps")"
    }

    private func mb(_ kib: Int) -> String { format(megabytes(kib: Double(kib)), 1) }

    /// The medians per side and the verdict of the first side (the worker's defaults); returns whether both
    /// targets passed.
    static func printTable(
        _ sides: [(name: String, runs: [MemoryRun])], queued: Int, inFlight: Int, targetMB: Double, idleTargetMB: Double,
        server: (peakKiB: Int?, rssKiB: Int?)?
    ) -> Bool {
        output("")
        output("Memory of a worker, MB (10^6 bytes), median of \(sides.first?.runs.count ?? 0) runs per side: idle (joined, no "
            + "requests) and loaded (\(queued) requests waiting in the topic, \(inFlight) running)")
        let header = [
            "side".padding(30), "idle VmHWM".leftPadding(10), "idle VmRSS".leftPadding(10), "VmHWM".leftPadding(8),
            "VmRSS".leftPadding(8), "heap".leftPadding(6), "arenas".leftPadding(7), "anon".leftPadding(6),
        ]
        output(header.joined(separator: " | "))
        output(header.map { String(repeating: "-", count: $0.count) }.joined(separator: "-|-"))
        for side in sides {
            func med(_ kib: (MemoryRun) -> Int) -> String { format(megabytes(kib: median(side.runs.map { Double(kib($0)) })), 1) }
            output([
                side.name.padding(30), med(\.idle.peakKiB).leftPadding(10), med(\.idle.rssKiB).leftPadding(10),
                med(\.loaded.peakKiB).leftPadding(8), med(\.loaded.rssKiB).leftPadding(8),
                med { $0.maps?.heapKiB ?? 0 }.leftPadding(6), med { $0.maps?.arenasKiB ?? 0 }.leftPadding(7),
                med { $0.maps?.otherAnonymousKiB ?? 0 }.leftPadding(6),
            ].joined(separator: " | "))
        }
        if let server {
            output("sample server (info; holds its dataset): VmHWM \(server.peakKiB.map { format(megabytes(kib: Double($0)), 1) } ?? "-") MB, "
                + "VmRSS \(server.rssKiB.map { format(megabytes(kib: Double($0)), 1) } ?? "-") MB")
        }
        guard let measured = sides.first, !measured.runs.isEmpty else { return false }
        let peak = megabytes(kib: median(measured.runs.map { Double($0.loaded.peakKiB) }))
        let idle = megabytes(kib: median(measured.runs.map { Double($0.idle.rssKiB) }))
        let peakPassed = peak <= targetMB
        let idlePassed = idle <= idleTargetMB
        output("")
        output("\(measured.name): peak RSS with \(queued) waiting and \(inFlight) running \(format(peak, 1)) MB  -> "
            + "\(peakPassed ? "PASS" : "FAIL") (target <= \(format(targetMB, 0)) MB)")
        output("\(measured.name): idle RSS \(format(idle, 1)) MB  -> \(idlePassed ? "PASS" : "FAIL") (target <= \(format(idleTargetMB, 0)) MB)")
        for peer in sides.dropFirst() where !peer.runs.isEmpty {
            let peerPeak = megabytes(kib: median(peer.runs.map { Double($0.loaded.peakKiB) }))
            output("(peer) \(peer.name): peak RSS \(format(peerPeak, 1)) MB, \(format(peerPeak / max(peak, 0.1), 2))x the worker's defaults")
        }
        return peakPassed && idlePassed
    }
}
