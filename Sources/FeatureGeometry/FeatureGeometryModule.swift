/// The module's version of its limits and formats, for diagnostics.
public enum FeatureGeometryModule {
    public static let name = "FeatureGeometry"
}
