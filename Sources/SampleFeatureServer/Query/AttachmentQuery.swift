/// A `queryAttachments` request and its answer: the attachments of the features that `objectIds` and/or
/// `definitionExpression` select, grouped by feature (ascending OBJECTID, features without attachments left
/// out), infos ascending by id. At most ``limit`` infos an answer, counted over all groups;
/// `resultOffset`/`resultRecordCount` page that concatenation and `exceededTransferLimit` says whether infos
/// follow the answer.
struct AttachmentQuery: Sendable {
    /// The most infos one answer holds.
    static let limit = 1000

    let objectIDs: [Int]?
    let predicate: WherePredicate?
    let returnURL: Bool
    let offset: Int
    let recordCount: Int

    init(_ parameters: RequestParameters, layer: LayerDefinition) throws(ArcGISServiceError) {
        objectIDs = try LayerQueryParameters.objectIDs(parameters["objectIds"]).map { Array(Set($0)).sorted() }
        predicate = try parameters["definitionExpression"].map { (text) throws(ArcGISServiceError) in
            try WherePredicate(text, layer: layer, parameter: "definitionExpression")
        }
        guard objectIDs != nil || predicate != nil else {
            throw .invalidRequest("Either 'objectIds' or 'definitionExpression' must be specified")
        }
        returnURL = try parameters.bool("returnUrl", default: false)
        offset = try parameters.integer("resultOffset", minimum: 0) ?? 0
        recordCount = min(try parameters.integer("resultRecordCount", minimum: 1) ?? Self.limit, Self.limit)
    }

    struct Answer: Sendable {
        var groups: [(objectID: Int, infos: [AttachmentInfo])] = []
        var exceededTransferLimit = false
    }

    /// The page of infos the request selects from `layer`'s features.
    func answer(_ layer: PublishedLayer, attachments: SampleAttachments) -> Answer {
        var answer = Answer()
        var position = 0
        let end = offset + recordCount
        var record = predicate?.makeRecord() ?? []
        /// Adds the feature's infos that fall on the page; false once the answer is complete.
        func visit(_ objectID: Int) -> Bool {
            guard attachments.hasAttachments(objectID), layer.source.contains(objectID - 1) else { return true }
            if let predicate, !predicate.matches(layer.source, objectID - 1, record: &record) { return true }
            if position >= end {
                answer.exceededTransferLimit = true
                return false
            }
            let infos = attachments.infos(objectID)
            let shown = (position..<(position + infos.count)).clamped(to: offset..<end)
            if !shown.isEmpty {
                answer.groups.append((objectID, Array(infos[(shown.lowerBound - position)..<(shown.upperBound - position)])))
            }
            position += infos.count
            if position > end {
                answer.exceededTransferLimit = true
                return false
            }
            return true
        }
        if let objectIDs {
            for objectID in objectIDs where !visit(objectID) { break }
        } else {
            for objectID in 1...max(1, attachments.featureCount) where !visit(objectID) { break }
        }
        return answer
    }
}
