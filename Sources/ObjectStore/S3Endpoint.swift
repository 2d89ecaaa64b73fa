/// Where requests for a bucket go: AWS's regional endpoint with the bucket in the host name
/// (`https://bucket.s3.region.amazonaws.com/key`), or a given endpoint (MinIO, Ceph, moto, a VPC endpoint) with
/// the bucket as the first path segment (`http://host:port/bucket/key`), which works without wildcard DNS.
package struct S3Endpoint: Sendable, Hashable {
    /// `https` or `http`.
    package let scheme: String
    /// The host and, when not the scheme's default, `:port`; for AWS, without the bucket.
    package let authority: String
    /// Whether the bucket is the path's first segment rather than part of the host name.
    package let pathStyle: Bool

    /// AWS's endpoint for `region`, virtual-hosted.
    package static func aws(region: String) -> S3Endpoint {
        S3Endpoint(scheme: "https", authority: "s3.\(region).amazonaws.com", pathStyle: false)
    }

    /// A store at `url` (`http://127.0.0.1:9000`, `https://minio.example.com`), path-style unless told
    /// otherwise (virtual-hosted needs a DNS name per bucket).
    package init(url: String, pathStyle: Bool = true) throws(ObjectStoreError) {
        let scheme: String
        if url.hasPrefix("https://") { scheme = "https" } else if url.hasPrefix("http://") { scheme = "http" } else {
            throw .configuration("the object store endpoint '\(url)' must start with http:// or https://")
        }
        var authority = String(url.dropFirst(scheme.count + 3))
        while authority.hasSuffix("/") { authority.removeLast() }
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("?"), !authority.contains("@") else {
            throw .configuration("the object store endpoint '\(url)' must be scheme://host[:port], without a path, query or user")
        }
        self.init(scheme: scheme, authority: authority, pathStyle: pathStyle)
    }

    init(scheme: String, authority: String, pathStyle: Bool) {
        self.scheme = scheme
        self.authority = authority
        self.pathStyle = pathStyle
    }

    /// The host (with port) that requests for `bucket` name: what the signature's `host` header is.
    func host(bucket: String) -> String { pathStyle ? authority : "\(bucket).\(authority)" }

    /// The encoded path of `key` in `bucket` (`/bucket/key` or `/key`); an empty key names the bucket.
    func path(bucket: String, key: String) -> String {
        let encodedKey = AWSURIEncoding.encode(key, keepingSlash: true)
        if pathStyle { return key.isEmpty ? "/\(bucket)" : "/\(bucket)/\(encodedKey)" }
        return "/\(encodedKey)"
    }

    /// The URL of `key` in `bucket` with a canonical `query` (may be empty).
    func url(bucket: String, key: String, query: String = "") -> String {
        "\(scheme)://\(host(bucket: bucket))\(path(bucket: bucket, key: key))\(query.isEmpty ? "" : "?" + query)"
    }
}
