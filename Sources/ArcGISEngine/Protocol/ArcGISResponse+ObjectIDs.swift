import FeatureQuerySupport
import FeatureService

extension ArcGISResponse {
    /// A `returnIdsOnly=true` answer: `{"objectIdFieldName":"OBJECTID","objectIds":[...]}`, ids in the order
    /// sent.
    ///
    /// This is the one response that grows without a page limit (2.4 million ids is a ~20 MB body), so it is
    /// read by a dedicated byte scanner rather than a JSON tree: the ids go straight into an `[Int64]`
    /// reserved to their exact count, and other members are skipped with their syntax checked.
    ///
    /// `"objectIds": null` (what servers send when nothing matches) is an empty page. Throws the mapped error
    /// for an ArcGIS error body (`error`, or `status: "error"`), and `.malformedResponse` for a body without
    /// `objectIds`, an id that is not an integer in Int64's range, or broken JSON (retryable when truncated).
    static func objectIDs(_ body: [UInt8], layer: String) throws(FeatureServiceError) -> ObjectIDPage {
        let context = ResponseContext(layer: layer)
        let start = try context.jsonStart(body)
        let outcome = body.withUnsafeBufferPointer { buffer -> Result<ObjectIDScan, ObjectIDScanError> in
            var reader = ObjectIDReader(buffer, from: start)
            do throws(ObjectIDScanError) {
                return .success(try reader.read())
            } catch {
                return .failure(error)
            }
        }
        let scan: ObjectIDScan
        switch outcome {
        case .success(let value):
            scan = value
        case .failure(.syntax(let failure)):
            throw context.jsonError(failure, body: body, start: start)
        case .failure(.shape(let text)):
            // A cut or broken body can look like a wrong shape where it stops; say which it is.
            if let failure = syntaxFailure(body, start: start) {
                throw context.jsonError(failure, body: body, start: start)
            }
            throw context.malformed(text)
        }
        if let serviceError = serviceError(in: scan, body: body) {
            throw serviceError.error(layer: context.layer, httpStatus: nil, retryAfter: nil)
        }
        guard let ids = scan.objectIds else {
            let hint = scan.hasFeatures ? " (it holds features: the service may have ignored returnIdsOnly)" : ""
            throw context.malformed("has no \"objectIds\" member, so it is not an answer to returnIdsOnly\(hint)")
        }
        return ObjectIDPage(objectIdFieldName: scan.objectIdFieldName, objectIds: ids)
    }

    private static func syntaxFailure(_ body: [UInt8], start: Int) -> JSONScanFailure? {
        body.withUnsafeBufferPointer { buffer in
            JSONByteScanner.check(UnsafeBufferPointer(rebasing: buffer[start...])).map {
                JSONScanFailure(kind: $0.kind, offset: $0.offset + start, reason: $0.reason)
            }
        }
    }

    /// The error body among the members the scanner set aside, parsed only when `error` or `status` is there.
    private static func serviceError(in scan: ObjectIDScan, body: [UInt8]) -> ServiceErrorBody? {
        guard scan.errorMemberRanges.contains(where: { $0.name == "error" || $0.name == "status" }) else {
            return nil
        }
        var members: [String: ParsedJSON] = [:]
        for (name, range) in scan.errorMemberRanges {
            if let value = try? ParsedJSON(reading: body[range]) {
                members[name] = value
            }
        }
        return ServiceErrorBody(members)
    }
}
