/// The kinds of fault the server can inject, as statistics count them.
package enum FaultKind: String, CaseIterable, Sendable, Hashable, CustomStringConvertible {
    case latency
    case http500
    case http503
    case http429
    case truncatedBody = "truncated-body"
    case arcgisError = "arcgis-error"
    case htmlPage = "html-page"
    case shortPages = "short-pages"
    case hugeBody = "huge-body"

    package var description: String { rawValue }
}

/// One fault to inject: what happens, to which requests, and how often.
///
/// Faults are how tests and benchmarks meet the failures real ArcGIS servers and the proxies in front of
/// them produce: slow answers, 5xx and 429 with `Retry-After`, bodies cut mid-transfer, ArcGIS error bodies
/// with HTTP 200, an HTML page where JSON was expected, and pages trimmed below maxRecordCount. A rule
/// applies to requests whose path contains ``pathContains`` (any request when nil), and fires on every one
/// of them, on a window of them in arrival order ("the first 2 fail"), or with a probability drawn from a
/// seeded generator, so that a failing run can be repeated exactly.
package struct FaultRule: Sendable, Hashable, CustomStringConvertible {
    /// What the fault does.
    package enum Kind: Sendable, Hashable {
        /// Waits this long before answering (added to other latency rules that fire).
        case latency(milliseconds: Int)
        /// HTTP 500 with a small HTML body.
        case http500
        /// HTTP 503 with `Retry-After: seconds`.
        case http503(retryAfterSeconds: Int)
        /// HTTP 429 (too many requests) with `Retry-After: seconds`.
        case http429(retryAfterSeconds: Int)
        /// The real response's status and `Content-Length`, then half its body, then the connection closes.
        case truncatedBody
        /// HTTP 200 with `{"error":{"code":500,"message":"Error performing query operation",...}}`.
        case arcgisError
        /// An HTML page (a proxy's or portal's sign-in page) instead of JSON, with this HTTP status.
        case htmlPage(status: Int)
        /// Query pages hold at most this many features (below maxRecordCount), with exceededTransferLimit set
        /// while more remain: a server trimming big pages. Clients must page on from what they received.
        case shortPages(maximum: Int)
        /// HTTP 200 with a JSON content type and a body of this many MiB that never becomes a valid response,
        /// streamed in small chunks (the server never holds it): a misconfigured layer or proxy sending far
        /// more than any page. With `announced`, `Content-Length` says how big it is before the body starts (a
        /// client can refuse it at once); without, it is chunked and a client learns its size only by reading.
        case hugeBody(megabytes: Int, announced: Bool)

        /// The kind's name, as statistics count it.
        package var name: FaultKind {
            switch self {
            case .latency: .latency
            case .http500: .http500
            case .http503: .http503
            case .http429: .http429
            case .truncatedBody: .truncatedBody
            case .arcgisError: .arcgisError
            case .htmlPage: .htmlPage
            case .shortPages: .shortPages
            case .hugeBody: .hugeBody
            }
        }

        /// Whether the fault replaces (or cuts) the response, as opposed to delaying or trimming it.
        var isFailure: Bool {
            switch self {
            case .latency, .shortPages: false
            default: true
            }
        }
    }

    /// When a rule fires among the requests it applies to.
    package enum Trigger: Sendable, Hashable {
        /// Every request.
        case always
        /// Skips the first `skip` requests it applies to, then fires on the next `count` (nil: on all the
        /// rest). `.window(skip: 0, count: 2)`: the first two fail, then requests succeed.
        case window(skip: Int, count: Int?)
        /// Each request with this probability, drawn from a generator seeded with `seed`.
        case probability(Double, seed: UInt64)

        /// The first `count` requests.
        package static func first(_ count: Int) -> Trigger { .window(skip: 0, count: count) }
    }

    /// What the fault does.
    package var kind: Kind
    /// A substring of the request path (percent-decoded, compared ignoring case), e.g. `USA/MapServer/1`
    /// or `/query`; nil for every request.
    package var pathContains: String?
    /// Which of the requests it applies to it fires on.
    package var trigger: Trigger

    /// A rule; by default it applies to every request and fires on each.
    package init(_ kind: Kind, pathContains: String? = nil, trigger: Trigger = .always) {
        self.kind = kind
        self.pathContains = pathContains
        self.trigger = trigger
    }

    package var description: String {
        var text = "\(kind.name)"
        if let pathContains { text += " on paths containing '\(pathContains)'" }
        switch trigger {
        case .always: break
        case .window(let skip, let count): text += " (skip \(skip), then \(count.map(String.init) ?? "all"))"
        case .probability(let p, let seed): text += " (probability \(p), seed \(seed))"
        }
        return text
    }

    /// Whether the rule applies to a request with this path (already lower-cased).
    func applies(toLowercasedPath path: String) -> Bool {
        guard let pathContains, !pathContains.isEmpty else { return true }
        return path.contains(pathContains.lowercased())
    }
}
