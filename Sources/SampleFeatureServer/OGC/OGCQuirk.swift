/// A misbehaviour of real OGC API Features servers the OGC face can put on, so that one server can test how
/// a client copes with each. Quirks are turned on per mount: `/ogc-quirks/{quirk[,quirk...]}` serves the same
/// API as `/ogc` with those quirks (e.g. `/ogc-quirks/cursor,max-limit-7/collections/USA_Cities/items`).
enum OGCQuirk: Sendable, Hashable {
    /// `no-filter`: Part 3 (filter, queryables parameters, CQL2) is not declared; `filter` is a 400.
    case noFilter
    /// `filter-ignored`: filtering is declared but `filter` is ignored (pygeoapi's GeoJSON provider).
    case filterIgnored
    /// `cursor`: `next` links carry an opaque `cursor` token instead of `offset`.
    case cursor
    /// `relative-links`: `next` (and `self`) hrefs are relative (`items?offset=...`).
    case relativeLinks
    /// `max-limit-N`: the largest page is N (larger limits are clamped; the OpenAPI says so).
    case maxLimit(Int)
    /// `strict-limit`: a limit above the maximum is a 400 instead of being clamped.
    case strictLimit
    /// `spurious-next`: the last page still has a `next`, to an empty page (pygeoapi on an exact last page).
    case spuriousNext
    /// `empty-page`: the first page's `next` leads to an empty page that itself has a `next` to the rest.
    case emptyPage
    /// `duplicates`: each page after the first repeats the previous page's last feature.
    case duplicates
    /// `no-number-matched`: `numberMatched` is left out.
    case noNumberMatched
    /// `wrong-number-matched`: `numberMatched` is 10 more than the truth.
    case wrongNumberMatched
    /// `other-origin`: `next` links name another origin (`localhost` for `127.0.0.1` and back).
    case otherOrigin
    /// `next-cycle`: the second page's `next` points back to the first page.
    case nextCycle
    /// `sortby-ignored`: sorting (Part 8) is not declared (no conformance class, no sortables) and `sortby`
    /// is accepted but ignored: features come in id order (pygeoapi providers without sort support).
    case sortbyIgnored
    /// `sortby-undeclared`: sorting is not declared, yet `sortby` is honoured (GeoServer with sorting on).
    case sortbyUndeclared
    /// `pygeoapi-datetime`: `datetime` as pygeoapi 0.21 checks it: a 400 on a collection without a temporal
    /// extent, and a 400 "datetime parameter out of range" when it lies wholly outside the extent.
    case pygeoapiDatetime

    /// Reads one quirk name; nil for an unknown one.
    init?(name: String) {
        switch name.lowercased() {
        case "no-filter": self = .noFilter
        case "filter-ignored": self = .filterIgnored
        case "cursor": self = .cursor
        case "relative-links": self = .relativeLinks
        case "strict-limit": self = .strictLimit
        case "spurious-next": self = .spuriousNext
        case "empty-page": self = .emptyPage
        case "duplicates": self = .duplicates
        case "no-number-matched": self = .noNumberMatched
        case "wrong-number-matched": self = .wrongNumberMatched
        case "other-origin": self = .otherOrigin
        case "next-cycle": self = .nextCycle
        case "sortby-ignored": self = .sortbyIgnored
        case "sortby-undeclared": self = .sortbyUndeclared
        case "pygeoapi-datetime": self = .pygeoapiDatetime
        default:
            let prefix = "max-limit-"
            guard name.lowercased().hasPrefix(prefix), let value = Int(name.dropFirst(prefix.count)), value >= 1 else { return nil }
            self = .maxLimit(value)
        }
    }

    /// Every quirk's name (with `max-limit-7` standing for `max-limit-N`), for documentation and errors.
    static let names = [
        "no-filter", "filter-ignored", "cursor", "relative-links", "max-limit-7", "strict-limit", "spurious-next",
        "empty-page", "duplicates", "no-number-matched", "wrong-number-matched", "other-origin", "next-cycle",
        "sortby-ignored", "sortby-undeclared", "pygeoapi-datetime",
    ]
}

/// The quirks of one mount, and what they add up to.
struct OGCQuirks: Sendable, Hashable {
    let enabled: Set<OGCQuirk>

    static let none = OGCQuirks(enabled: [])

    /// The default largest page when no `max-limit-N` quirk says otherwise.
    static let defaultMaximumLimit = 10_000

    func has(_ quirk: OGCQuirk) -> Bool { enabled.contains(quirk) }

    var maximumLimit: Int {
        enabled.compactMap { quirk -> Int? in
            if case .maxLimit(let value) = quirk { return value }
            return nil
        }.min() ?? Self.defaultMaximumLimit
    }

    /// Whether filtering (Part 3 and CQL2) is declared.
    var declaresFilter: Bool { !has(.noFilter) }

    /// Whether sorting (Part 8: the conformance class, `/sortables`) is declared.
    var declaresSorting: Bool { !has(.sortbyIgnored) && !has(.sortbyUndeclared) }

    /// Whether `sortby` orders the features.
    var honoursSortby: Bool { !has(.sortbyIgnored) }
}
