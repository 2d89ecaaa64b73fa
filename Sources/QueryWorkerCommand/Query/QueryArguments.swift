import ArgumentParser
import FeatureQuerySupport
import Foundation

/// `--extent xmin,ymin,xmax,ymax[,wkid]`: the contract's `query.extent`, typed on one line.
///
/// The wkid defaults to 4326 as in the contract, so `-118.84,34.01,-118.77,34.05` is a box in degrees.
/// The numbers are checked here (finite, min ≤ max) so a typo is a usage error naming the flag, not a
/// rejection from a worker a round trip later.
struct ExtentArgument: Sendable, Hashable {
    var xmin: Double
    var ymin: Double
    var xmax: Double
    var ymax: Double
    var wkid: Int

    init(xmin: Double, ymin: Double, xmax: Double, ymax: Double, wkid: Int) {
        self.xmin = xmin
        self.ymin = ymin
        self.xmax = xmax
        self.ymax = ymax
        self.wkid = wkid
    }

    /// Reads `xmin,ymin,xmax,ymax[,wkid]`; the error says which part is wrong.
    static func parse(_ argument: String) throws -> ExtentArgument {
        let parts = argument.split(separator: ",", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        guard parts.count == 4 || parts.count == 5 else {
            throw ValidationError("expected xmin,ymin,xmax,ymax[,wkid] (4 or 5 numbers), got \(parts.count) in '\(argument)'")
        }
        var numbers: [Double] = []
        for (name, part) in zip(["xmin", "ymin", "xmax", "ymax"], parts) {
            guard let number = Double(part), number.isFinite else {
                throw ValidationError("\(name) '\(part)' is not a number")
            }
            numbers.append(number)
        }
        guard numbers[0] <= numbers[2], numbers[1] <= numbers[3] else {
            throw ValidationError("xmin must not exceed xmax, nor ymin ymax (the order is xmin,ymin,xmax,ymax)")
        }
        var wkid = 4326
        if parts.count == 5 {
            guard let value = Int(parts[4]), value > 0 else {
                throw ValidationError("the wkid '\(parts[4])' is not a positive whole number (4326, 3857, 102100, ...)")
            }
            wkid = value
        }
        return ExtentArgument(xmin: numbers[0], ymin: numbers[1], xmax: numbers[2], ymax: numbers[3], wkid: wkid)
    }
}

/// `--layers 0,2,3`: sublayer ids of a service target, distinct and not negative.
struct LayerList: Sendable, Hashable {
    var ids: [Int]

    static func parse(_ argument: String) throws -> LayerList {
        var ids: [Int] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let text = part.trimmingCharacters(in: .whitespaces)
            guard let id = Int(text), id >= 0 else {
                throw ValidationError("expected sublayer ids such as 0,2,3; '\(text)' is not one")
            }
            guard !ids.contains(id) else { throw ValidationError("sublayer \(id) is named twice") }
            ids.append(id)
        }
        return LayerList(ids: ids)
    }
}

/// The contract's `query.result`.
enum ResultKindArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case ids, count, features, catalog, statistics, extent, distinct, related, attachments
}

/// The contract's `query.spatialRelationship`.
enum SpatialRelationshipArgument: String, ExpressibleByArgument, CaseIterable, Sendable {
    case intersects, contains, within, envelopeIntersects
}

/// `--target`: an ArcGIS layer or service URL, or `ogc:` and an OGC API Features landing page URL.
///
/// A prefix rather than a second flag so that the order of mixed targets is the order typed (a result's
/// layers follow the targets' order); the collections of OGC targets come from `--collection`.
struct TargetArgument: Sendable, Hashable {
    enum Kind: Sendable, Hashable { case arcgis, ogc }
    var kind: Kind
    var url: String

    static let ogcPrefix = "ogc:"

    static func parse(_ argument: String) throws -> TargetArgument {
        guard argument.hasPrefix(ogcPrefix) else { return TargetArgument(kind: .arcgis, url: argument) }
        let url = String(argument.dropFirst(ogcPrefix.count))
        guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
            throw ValidationError("an ogc: target is ogc: and the landing page's http(s) URL, e.g. ogc:https://demo.ldproxy.net/daraa")
        }
        return TargetArgument(kind: .ogc, url: url)
    }

    /// A service URL ends in `/MapServer` or `/FeatureServer` (a trailing slash ignored); a layer URL has
    /// the layer id after it.
    var isArcGISService: Bool {
        guard kind == .arcgis else { return false }
        let trimmed = url.hasSuffix("/") ? String(url.dropLast()) : url
        return trimmed.hasSuffix("/MapServer") || trimmed.hasSuffix("/FeatureServer")
    }
}

/// `--out-fields A,B,C`: field names, distinct, none empty.
struct FieldList: Sendable, Hashable {
    var names: [String]

    static func parse(_ argument: String) throws -> FieldList {
        var names: [String] = []
        for part in argument.split(separator: ",", omittingEmptySubsequences: false) {
            let name = part.trimmingCharacters(in: .whitespaces)
            guard !name.isEmpty else { throw ValidationError("expected field names such as APN,UseType; one is empty") }
            guard !names.contains(name) else { throw ValidationError("the field \(name) is named twice") }
            names.append(name)
        }
        return FieldList(names: names)
    }
}

/// `--geometry`: a GeoJSON or Esri JSON geometry, as text or `@file`; checked as JSON here, as a geometry by
/// the worker's decoder before publishing.
struct GeometryArgument: Sendable, Hashable {
    /// The JSON as typed (checked to be JSON here, so a typo is a usage error), as the client library takes a geometry.
    var text: String

    static func parse(_ argument: String) throws -> GeometryArgument {
        var text = argument
        if argument.hasPrefix("@") {
            let path = String(argument.dropFirst())
            guard let contents = FileManager.default.contents(atPath: path) else {
                throw ValidationError("cannot read the geometry file \(path)")
            }
            text = String(decoding: contents, as: UTF8.self)
        }
        do throws(JSONReadError) {
            _ = try ParsedJSON(reading: Array(text.utf8))
            return GeometryArgument(text: text)
        } catch {
            throw ValidationError("the geometry is not JSON: \(error.message)")
        }
    }
}

/// A duration as people type it: `60s`, `500ms`, `2m`, `1.5h`; a bare number is seconds.
struct DurationArgument: ExpressibleByArgument, Sendable, Hashable, CustomStringConvertible {
    var duration: Duration
    private let text: String

    init(seconds: Int) {
        duration = .seconds(seconds)
        text = "\(seconds)s"
    }

    init?(argument: String) {
        let trimmed = argument.trimmingCharacters(in: .whitespaces).lowercased()
        let units: [(suffix: String, seconds: Double)] = [("ms", 0.001), ("s", 1), ("m", 60), ("h", 3_600)]
        var number = trimmed
        var scale = 1.0
        for unit in units where trimmed.hasSuffix(unit.suffix) {
            number = String(trimmed.dropLast(unit.suffix.count))
            scale = unit.seconds
            break
        }
        guard let value = Double(number), value.isFinite, value > 0, value * scale <= 86_400 else { return nil }
        duration = .milliseconds(Int64((value * scale * 1_000).rounded()))
        text = trimmed
    }

    var description: String { text }
    var defaultValueDescription: String { text }
}
