/// What a path names on the OGC face: `/ogc/...`, or `/ogc-quirks/{quirk[,quirk...]}/...` for the same API
/// with quirks on, or `/ogc-secured/...` for the API behind an API key. `base` is the mount's path (`/ogc` or `/ogc-quirks/cursor,duplicates`), which links are
/// built from.
struct OGCRoute: Sendable, Equatable {
    enum Resource: Sendable, Equatable {
        case landing
        case openAPI
        case conformance
        case collections
        case collection(String)
        case queryables(String)
        /// `/collections/{id}/sortables` (Part 8), where sorting is declared.
        case sortables(String)
        case items(String)
        case item(String, String)
        case notFound
    }

    let base: String
    let quirks: OGCQuirks
    let resource: Resource
    /// The `/ogc-secured` mount: every request needs an API key.
    let requiresKey: Bool

    /// Nil when the path is not on the OGC face; throws for an unknown quirk name.
    init?(path: String) throws(OGCError) {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        guard let first = parts.first else { return nil }
        let rest: ArraySlice<String>
        requiresKey = first == "ogc-secured"
        switch first {
        case "ogc", "ogc-secured":
            base = "/" + first
            quirks = .none
            rest = parts.dropFirst()
        case "ogc-quirks":
            guard parts.count >= 2 else { throw .notFound("name the quirks: /ogc-quirks/{quirk[,quirk...]}; known: \(OGCQuirk.names.joined(separator: ", "))") }
            var set = Set<OGCQuirk>()
            for name in parts[1].split(separator: ",") {
                guard let quirk = OGCQuirk(name: String(name)) else {
                    throw .notFound("unknown quirk '\(name.prefix(40))'; known: \(OGCQuirk.names.joined(separator: ", "))")
                }
                set.insert(quirk)
            }
            guard !set.isEmpty else { throw .notFound("name at least one quirk: \(OGCQuirk.names.joined(separator: ", "))") }
            base = "/ogc-quirks/" + parts[1]
            quirks = OGCQuirks(enabled: set)
            rest = parts.dropFirst(2)
        default:
            return nil
        }
        let tail = Array(rest)
        switch tail.count {
        case 0: resource = .landing
        case 1:
            switch tail[0] {
            case "api": resource = .openAPI
            case "conformance": resource = .conformance
            case "collections": resource = .collections
            default: resource = .notFound
            }
        case 2 where tail[0] == "collections": resource = .collection(tail[1])
        case 3 where tail[0] == "collections" && tail[2] == "queryables": resource = .queryables(tail[1])
        case 3 where tail[0] == "collections" && tail[2] == "sortables": resource = .sortables(tail[1])
        case 3 where tail[0] == "collections" && tail[2] == "items": resource = .items(tail[1])
        case 4 where tail[0] == "collections" && tail[2] == "items": resource = .item(tail[1], tail[3])
        default: resource = .notFound
        }
    }

    /// The collection the path names, if any.
    var collectionID: String? {
        switch resource {
        case .collection(let id), .queryables(let id), .sortables(let id), .items(let id), .item(let id, _): id
        default: nil
        }
    }

    var isItems: Bool {
        switch resource {
        case .items, .item: true
        default: false
        }
    }
}
