import CurlHTTP
import Foundation

/// Fetches a stored object's bytes through its presigned URL in ranges (`Range: bytes=a-b`), one range per call:
/// the HTTP bridge hands over whole responses, so ranges are what keeps a gigabyte object out of memory, and each
/// range is retried on its own when the store or the network falters.
///
/// The store's `Content-Range` total is checked against the location's size at the first range: an object
/// replaced by one of another size fails at once, before it is read through.
struct StoredRangeFetcher: Sendable {
    let http: HTTPClient
    let location: StoredResultLocation
    let rangeBytes: Int
    let attempts: Int
    let firstBackoff: Duration
    private(set) var offset = 0
    private(set) var done = false

    init(http: HTTPClient, location: StoredResultLocation, rangeBytes: Int, attempts: Int, firstBackoff: Duration = .milliseconds(200)) {
        self.http = http
        self.location = location
        self.rangeBytes = max(1, rangeBytes)
        self.attempts = max(1, attempts)
        self.firstBackoff = firstBackoff
    }

    /// The next range's bytes, `nil` after the last.
    mutating func next() async throws(FeatureQueryError) -> [UInt8]? {
        guard !done else { return nil }
        // An empty object has no byte to ask a range of: one plain GET.
        let range = location.bytes == 0 ? nil : (offset, min(offset + rangeBytes, location.bytes) - 1)
        let response = try await get(range: range)
        switch response.status {
        case 206:
            if let total = Self.total(response.headers["Content-Range"]), total != location.bytes {
                throw sizeMismatch(total)
            }
            guard !response.body.isEmpty else { throw sizeMismatch(offset) }
            offset += response.body.count
            done = offset >= location.bytes
            return response.body
        case 200:
            // The whole object: a store that ignores `Range`, or the empty object's plain GET.
            guard offset == 0 else { throw sizeMismatch(response.body.count) }
            done = true
            offset = response.body.count
            return response.body
        case 416:
            // The range starts beyond the object's end: it is shorter than the location says.
            throw sizeMismatch(offset)
        default:
            throw StoredFetchFailure.status(response, location: location)
        }
    }

    /// The total of `bytes a-b/TOTAL`.
    static func total(_ contentRange: String?) -> Int? {
        guard let contentRange, let slash = contentRange.lastIndex(of: "/") else { return nil }
        return Int(contentRange[contentRange.index(after: slash)...].trimmingCharacters(in: .whitespaces))
    }

    private func sizeMismatch(_ bytes: Int) -> FeatureQueryError {
        FeatureQueryError(
            .storedResultSizeMismatch,
            "the store holds \(bytes) bytes of \(location.url), its location says \(location.bytes): the object was replaced or "
                + "truncated (submit the job again)",
            isRetryable: true)
    }

    /// One GET, again after a retryable failure (a connection refused or reset, a timeout, 5xx, 429), waiting
    /// longer each time.
    private func get(range: (Int, Int)?) async throws(FeatureQueryError) -> HTTPResponse {
        var headers = HTTPHeaders()
        if let (first, last) = range { headers.add("Range", "bytes=\(first)-\(last)") }
        // Room for the range (or a whole object from a store that ignores ranges) and no more.
        let limit = (range == nil ? location.bytes : rangeBytes) + 1
        let request = HTTPRequest(url: location.httpURL, headers: headers, options: HTTPRequestOptions(maxResponseSize: limit))
        var backoff = firstBackoff
        for attempt in 1...attempts {
            let last = attempt == attempts
            do {
                let response = try await http.execute(request)
                if (response.status >= 500 || response.status == 429), !last {
                    try await Task.sleep(for: backoff)
                    backoff *= 2
                    continue
                }
                return response
            } catch let error as HTTPError where error.isRetryable && !last {
                do { try await Task.sleep(for: backoff) } catch { throw StoredFetchFailure.cancelled(location) }
                backoff *= 2
            } catch let error as HTTPError {
                throw StoredFetchFailure.network(error, location: location)
            } catch {
                throw StoredFetchFailure.cancelled(location)
            }
        }
        throw FeatureQueryError(.storedResultUnavailable, "the store did not answer for \(location.url)", isRetryable: true)
    }
}
