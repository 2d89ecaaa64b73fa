import FeatureQuerySupport

/// One attachment as `queryAttachments` and `<oid>/attachments` describe it.
struct AttachmentInfo: Sendable, Hashable {
    let id: Int
    let name: String
    let contentType: String
    /// The number of bytes `<oid>/attachments/<id>` serves: 100 to 50,000.
    let size: Int
    let keywords: String
}

/// The attachments of a layer with `hasAttachments`, derived from OBJECTIDs alone (nothing stored):
/// parcels whose OBJECTID is a multiple of 5 have 1 to 3 (a deed PDF, then photos), parcel OBJECTID 10 has
/// 1,200 (more than one queryAttachments answer holds), and cities whose OBJECTID is a multiple of 3 have
/// one photo. Attachment ids are unique within the layer.
struct SampleAttachments: Sendable {
    enum Kind: Sendable {
        case parcels, cities
    }

    let kind: Kind
    /// The layer's features: OBJECTIDs 1 through this.
    let featureCount: Int
    let seed: UInt64

    /// Parcel OBJECTID 10's attachment count: above the 1000 infos of one queryAttachments answer.
    static let bigParcelAttachments = 1_200
    static let bigParcel = 10

    private var salt: UInt64 { seed ^ (kind == .parcels ? 0x4154_5450 : 0x4154_5443) }

    /// The feature's attachments, ascending id; empty for a feature without (or one that does not exist).
    func infos(_ objectID: Int) -> [AttachmentInfo] {
        guard objectID >= 1, objectID <= featureCount else { return [] }
        switch kind {
        case .cities:
            return objectID % 3 == 0 ? [info(id: objectID, name: "photo-1.jpg")] : []
        case .parcels:
            guard objectID % 5 == 0 else { return [] }
            let count = objectID == Self.bigParcel
                ? Self.bigParcelAttachments : 1 + Int(SplitMix64.hash(salt, UInt64(objectID)) % 3)
            return (0..<count).map { position in
                // Three ids a parcel below featureCount × 4; the big parcel's extra ones above that range.
                let id = position < 3 ? objectID * 4 + position : (featureCount + 1) * 4 + position - 3
                let name = position == 0 ? "deed-\(ParcelAttributes.apn(objectID - 1)).pdf" : "photo-\(position).jpg"
                return info(id: id, name: name)
            }
        }
    }

    /// Whether the feature has any attachment, without building the infos.
    func hasAttachments(_ objectID: Int) -> Bool {
        guard objectID >= 1, objectID <= featureCount else { return false }
        return objectID % (kind == .parcels ? 5 : 3) == 0
    }

    private func info(id: Int, name: String) -> AttachmentInfo {
        let hash = SplitMix64.hash(salt &+ 1, UInt64(id))
        let isPDF = name.hasSuffix(".pdf")
        let keywords = isPDF ? "deed" : (hash >> 32) % 2 == 0 ? "" : "exterior"
        return AttachmentInfo(
            id: id, name: name, contentType: isPDF ? "application/pdf" : "image/jpeg", size: 100 + Int(hash % 49_901),
            keywords: keywords)
    }

    /// The attachment's content: exactly `size` bytes, a PDF or JPEG signature followed by seeded noise.
    func bytes(_ info: AttachmentInfo) -> [UInt8] {
        var bytes: [UInt8] = info.contentType == "application/pdf" ? Array("%PDF-1.4\n".utf8) : [0xFF, 0xD8, 0xFF, 0xE0]
        bytes.reserveCapacity(info.size)
        var random = SplitMix64(seed: SplitMix64.hash(salt &+ 2, UInt64(info.id)))
        while bytes.count < info.size {
            var word = random.next()
            for _ in 0..<8 where bytes.count < info.size {
                bytes.append(UInt8(truncatingIfNeeded: word))
                word >>= 8
            }
        }
        return bytes
    }
}
