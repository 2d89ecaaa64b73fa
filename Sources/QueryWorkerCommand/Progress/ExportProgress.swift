import FeatureService
import QueryOutcomes
import Synchronization

/// `export`'s progress: the engine's pages, counted as they are read in this process, shown by a
/// ``ProgressDisplay`` (the display keeps to one update a second; the engine reports every page).
final class ExportProgress: ProgressSink {
    private struct Counts {
        var features = 0
        var pages = 0
        var expected: Int?
    }

    private let display: ProgressDisplay
    private let started = ContinuousClock.now
    private let counts = Mutex(Counts())

    init(display: ProgressDisplay) {
        self.display = display
    }

    func pageRead(_ layer: ProgressLayer, features: Int, expected: Int?) {
        let reading = counts.withLock { counts in
            counts.features += features
            counts.pages += 1
            if let expected { counts.expected = expected }
            return ProgressMeter.Reading(
                features: counts.features, expected: counts.expected, pages: counts.pages, elapsed: .now - started)
        }
        display.update(reading)
    }

    func layerFinished(_ layer: ProgressLayer) {}
}
