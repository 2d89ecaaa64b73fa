/// How a sample server runs: where it listens, what data it generates, which faults it injects and who
/// may use it. Faults can be changed later on the running server (``SampleFeatureServer/setFaults(_:)``).
package struct SampleServerConfiguration: Sendable {
    /// The address to bind; loopback by default.
    package var host: String
    /// The port to bind; 0 lets the kernel pick a free one (read it back from ``SampleFeatureServer/baseURL``).
    package var port: Int
    /// Parcels to generate when no dataset is given to ``SampleFeatureServer/start(configuration:dataset:logger:)``.
    package var parcelCount: Int
    /// The generator's seed: the same seed and count give the same data.
    package var seed: UInt64
    /// Faults injected from the start.
    package var faults: [FaultRule]
    /// The token seam: nil allows every request. See ``SampleServerAuthorizer``.
    package var authorizer: SampleServerAuthorizer?
    /// Token security: nil serves everything publicly, as before. See ``SampleSecurity``.
    package var security: SampleSecurity?
    /// Capabilities to publish instead of a layer's own, e.g. `[.parcels: "Map"]` to serve the parcels
    /// layer without the Query capability (its queries are then refused, as ArcGIS refuses them).
    package var capabilityOverrides: [SampleLayer: String]
    /// How many recent requests the statistics keep.
    package var recentRequestLimit: Int
    /// The feature-table query capabilities and quirks of every layer (see ``LayerQueryOptions``).
    package var queryOptions = LayerQueryOptions()
    /// Per-layer replacements of ``queryOptions``, e.g. `[.counties: options]` with `supportsDistinct` false.
    package var layerQueryOptions: [SampleLayer: LayerQueryOptions] = [:]

    /// The query options `layer` is served with.
    func queryOptions(_ layer: SampleLayer) -> LayerQueryOptions { layerQueryOptions[layer] ?? queryOptions }

    /// A configuration; the defaults serve the full 2.4M parcels on a free loopback port, without faults.
    package init(
        host: String = "127.0.0.1",
        port: Int = 0,
        parcelCount: Int = SampleDataset.defaultParcelCount,
        seed: UInt64 = 1,
        faults: [FaultRule] = [],
        authorizer: SampleServerAuthorizer? = nil,
        security: SampleSecurity? = nil,
        capabilityOverrides: [SampleLayer: String] = [:],
        recentRequestLimit: Int = 1_000
    ) {
        self.host = host
        self.port = port
        self.parcelCount = parcelCount
        self.seed = seed
        self.faults = faults
        self.authorizer = authorizer
        self.security = security
        self.capabilityOverrides = capabilityOverrides
        self.recentRequestLimit = recentRequestLimit
    }
}
