/// Where results go: a bucket and a key prefix, written `s3://bucket/prefix` in settings.
package struct S3Location: Sendable, Hashable, CustomStringConvertible {
    package var bucket: String
    /// The key prefix, without a leading `/`; empty or ending in `/` once parsed, so keys join without doubling.
    package var prefix: String

    package init(bucket: String, prefix: String = "") {
        self.bucket = bucket
        self.prefix = prefix
    }

    /// Parses `s3://bucket` or `s3://bucket/some/prefix` (a trailing `/` is added to a non-empty prefix). The
    /// bucket name must follow S3's rules for names usable in a host (3–63 characters: lowercase letters,
    /// digits, `-` and `.`, starting and ending with a letter or digit), so a typo fails at start.
    package init(parsing text: String) throws(ObjectStoreError) {
        guard text.hasPrefix("s3://") else {
            throw .configuration("'\(text)' is not an S3 location: write s3://bucket/prefix")
        }
        let rest = text.dropFirst("s3://".count)
        let bucket = rest.prefix { $0 != "/" }
        guard Self.isValidBucketName(bucket) else {
            throw .configuration(
                "'\(bucket)' in '\(text)' is not a valid bucket name (3-63 lowercase letters, digits, '-' or '.', starting and ending with a letter or digit)")
        }
        var prefix = String(rest.dropFirst(bucket.count).drop { $0 == "/" })
        guard !prefix.contains("//") else { throw .configuration("the prefix of '\(text)' holds an empty path segment ('//')") }
        if !prefix.isEmpty, !prefix.hasSuffix("/") { prefix += "/" }
        self.init(bucket: String(bucket), prefix: prefix)
    }

    /// The key of `name` under the prefix.
    package func key(_ name: String) -> String { prefix + name }

    package var description: String { "s3://\(bucket)/\(prefix)" }

    /// S3's rules for bucket names that work in path-style and virtual-hosted URLs alike.
    static func isValidBucketName(_ name: some StringProtocol) -> Bool {
        let bytes = Array(name.utf8)
        func isLetterOrDigit(_ byte: UInt8) -> Bool {
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte)
        }
        guard (3...63).contains(bytes.count), let first = bytes.first, let last = bytes.last,
            isLetterOrDigit(first), isLetterOrDigit(last)
        else { return false }
        return bytes.allSatisfy { isLetterOrDigit($0) || $0 == UInt8(ascii: "-") || $0 == UInt8(ascii: ".") }
            && !name.contains("..")
    }
}
