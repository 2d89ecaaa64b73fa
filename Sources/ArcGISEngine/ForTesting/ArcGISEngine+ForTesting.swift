import EngineExecution
// Hooks for this package's tests: `package`, so an embedder of the library never sees them.

extension ArcGISEngine {
    /// Forgets cached metadata, so the next query reads it again: how a test shows that concurrent queries of
    /// a layer share one metadata load.
    package func clearMetadataCache() {
        layers.removeAll()
        services.removeAll()
    }
}
