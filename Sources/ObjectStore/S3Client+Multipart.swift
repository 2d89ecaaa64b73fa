import CurlHTTP

/// Multipart uploads: a large result goes up in parts (5 MiB to 5 GiB each, the last smaller), each retryable
/// alone, and becomes one object when completed. An upload that is neither completed nor aborted keeps its
/// parts (and their cost) until a lifecycle rule removes it, so a writer that gives up must abort.
///
/// Queries are written canonically (`uploads=`, names sorted) because libcurl 7.88 signs them as written.
extension S3Client {
    /// Starts an upload of `key` and returns its upload id. `contentType` and `contentEncoding` (`gzip`, `zstd`) are
    /// the finished object's, as a `GET` will answer them.
    package func createMultipartUpload(
        key: String, contentType: String = "application/octet-stream", contentEncoding: String? = nil
    ) async throws -> String {
        var headers: HTTPHeaders = ["Content-Type": contentType]
        if let contentEncoding { headers.replace("Content-Encoding", contentEncoding) }
        let response = try await send(
            .post, key: key, query: [("uploads", "")], body: [], headers: headers, operation: "CreateMultipartUpload")
        guard let uploadID = S3XML.text("UploadId", in: Substring(response.bodyString)), !uploadID.isEmpty else {
            throw ObjectStoreError(
                code: .malformedResponse, message: "CreateMultipartUpload of \(target(key)) answered without an UploadId",
                httpStatus: response.status)
        }
        return uploadID
    }

    /// Sends part `partNumber` (1–10,000) and returns its ETag, which completing the upload needs.
    package func uploadPart(key: String, uploadID: String, partNumber: Int, body: [UInt8]) async throws -> String {
        guard (1...10_000).contains(partNumber) else {
            throw ObjectStoreError(code: .invalidRequest, message: "part number \(partNumber) is outside 1-10000")
        }
        let response = try await send(
            .put, key: key, query: [("partNumber", String(partNumber)), ("uploadId", uploadID)], body: body,
            headers: ["Content-Type": "application/octet-stream"], operation: "UploadPart \(partNumber)")
        return try eTag(response, operation: "UploadPart \(partNumber)", key: key)
    }

    /// Joins the parts (in part-number order) into the object and returns its ETag. S3 may answer 200 and
    /// still fail (an `<Error>` body after a long assembly): that is an error here too.
    @discardableResult
    package func completeMultipartUpload(key: String, uploadID: String, parts: [S3CompletedPart]) async throws -> String {
        let response = try await send(
            .post, key: key, query: [("uploadId", uploadID)], body: Array(Self.completionXML(parts).utf8),
            headers: ["Content-Type": "application/xml"], operation: "CompleteMultipartUpload")
        let xml = Substring(response.bodyString)
        if !S3XML.elements("Error", in: xml).isEmpty {
            throw S3ErrorMapping.response(response, operation: "CompleteMultipartUpload", target: target(key))
        }
        guard let eTag = S3XML.text("ETag", in: xml) ?? response.headers["ETag"] else {
            throw ObjectStoreError(
                code: .malformedResponse, message: "CompleteMultipartUpload of \(target(key)) answered without an ETag",
                httpStatus: response.status)
        }
        return eTag
    }

    /// Gives up an upload and frees its parts.
    package func abortMultipartUpload(key: String, uploadID: String) async throws {
        _ = try await send(.delete, key: key, query: [("uploadId", uploadID)], operation: "AbortMultipartUpload")
    }

    /// The uploads under `prefix` that were started and neither completed nor aborted (the first 1,000): how
    /// an operator, or a test, proves none is left orphaned.
    package func listMultipartUploads(prefix: String = "") async throws -> [S3MultipartUpload] {
        var query = [("uploads", "")]
        if !prefix.isEmpty { query.append(("prefix", prefix)) }
        let response = try await send(.get, key: "", query: query, operation: "ListMultipartUploads")
        return S3XML.elements("Upload", in: Substring(response.bodyString)).compactMap { upload in
            guard let key = S3XML.text("Key", in: upload), let id = S3XML.text("UploadId", in: upload) else { return nil }
            return S3MultipartUpload(key: key, uploadID: id)
        }
        // Filtered here too: some S3-compatible stores ignore `prefix` on this call.
        .filter { $0.key.hasPrefix(prefix) }
    }

    /// The `CompleteMultipartUpload` document.
    static func completionXML(_ parts: [S3CompletedPart]) -> String {
        var xml = "<CompleteMultipartUpload xmlns=\"http://s3.amazonaws.com/doc/2006-03-01/\">"
        for part in parts.sorted(by: { $0.partNumber < $1.partNumber }) {
            xml += "<Part><PartNumber>\(part.partNumber)</PartNumber><ETag>\(S3XML.escape(part.eTag))</ETag></Part>"
        }
        return xml + "</CompleteMultipartUpload>"
    }
}
