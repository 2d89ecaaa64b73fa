extension WorkerAssembly {
    /// The worker's state now (see ``WorkerStatus``): what the operations endpoint's health checks and status
    /// page read on every request. Cheap: one lock for the machine's figures, one for the recent activity.
    package func status() -> WorkerStatus {
        worker.core.status()
    }
}
