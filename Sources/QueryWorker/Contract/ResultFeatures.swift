import FeatureService

/// A layer's features as GeoJSON `Feature` objects with their object ids, as a result carries them: the seam's
/// own type (``GeoJSONFeatureList``), so the features an engine returned are written into messages without
/// being converted on this side.
typealias ResultFeatures = GeoJSONFeatureList
