
/// Which part of a selection an items response holds and where its `next` leads, with the mount's quirks
/// applied: offset paging by default; cursor tokens, empty hops, overlaps, spurious and cyclic `next`s
/// when the quirks ask for them.
struct OGCPage: Sendable {
    let range: Range<Int>
    /// The page parameters of the `next` link; nil when there is none.
    let next: [SampleRequest.Parameter]?
    /// What `numberMatched` says; nil to leave it out.
    let numberMatched: Int?

    init(total: Int, query: OGCItemsQuery, quirks: OGCQuirks, shortPageCap: Int?) {
        let offset = min(query.offset, total)
        var size = query.limit
        if let shortPageCap { size = min(size, max(1, shortPageCap)) }
        numberMatched = quirks.has(.noNumberMatched) ? nil : (quirks.has(.wrongNumberMatched) ? total + 10 : total)
        if query.emptyHop {
            range = offset..<offset
            next = Self.position(offset, limit: query.limit, quirks: quirks, emptyHop: false)
            return
        }
        let end = min(total, offset + size)
        range = offset..<end
        var nextOffset: Int? = end < total ? end : nil
        if nextOffset != nil, quirks.has(.duplicates), end - offset >= 2 { nextOffset = end - 1 }
        if nextOffset == nil, quirks.has(.spuriousNext), end > offset { nextOffset = end }
        if quirks.has(.nextCycle), offset > 0 { nextOffset = 0 }
        let hop = quirks.has(.emptyPage) && offset == 0 && end < total
        next = nextOffset.map { Self.position($0, limit: query.limit, quirks: quirks, emptyHop: hop) }
    }

    private static func position(_ offset: Int, limit: Int, quirks: OGCQuirks, emptyHop: Bool) -> [SampleRequest.Parameter] {
        var parameters: [SampleRequest.Parameter] = []
        if quirks.has(.cursor) {
            parameters.append(.init(name: "cursor", value: OGCCursor.token(offset: offset)))
        } else {
            parameters.append(.init(name: "offset", value: String(offset)))
        }
        parameters.append(.init(name: "limit", value: String(limit)))
        if emptyHop { parameters.append(.init(name: "empty", value: "1")) }
        return parameters
    }
}
