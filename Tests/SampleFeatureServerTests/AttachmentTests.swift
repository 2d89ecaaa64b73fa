import CurlHTTP
import Foundation
import SampleFeatureServer
import Testing

/// `queryAttachments` and the per-feature attachment resources of the parcels and cities.
@Suite("Attachments")
struct AttachmentTests {
    @Test("queryAttachments groups infos by feature (ascending), omits features without, writes no url unless asked")
    func groups() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let apns = try await client.apns(server, [5])
            let answer = try await client.attachments(server, .parcels, [("objectIds", "30,1,2,3,4,5,6,15,20,25,5")])
            let groups = answer.attachmentGroups
            #expect(groups.map(\.objectID) == [5, 15, 20, 25, 30])
            #expect(answer.exceededTransferLimit == false)
            let infos = groups.flatMap(\.infos)
            let ids = infos.compactMap { $0.int("id") }
            #expect(Set(ids).count == ids.count && ids.allSatisfy { $0 > 0 })
            for group in groups {
                let groupIDs = group.infos.compactMap { $0.int("id") }
                #expect((1...3).contains(groupIDs.count) && groupIDs == groupIDs.sorted())
                #expect(group.infos.first?["contentType"] as? String == "application/pdf")
            }
            #expect(groups.first?.infos.first?["name"] as? String == "deed-\(apns[5] ?? "").pdf")
            #expect(infos.allSatisfy { (100...50_000).contains($0.int("size") ?? 0) && $0["keywords"] is String })
            #expect(infos.allSatisfy { $0["url"] == nil && $0["globalId"] is NSNull && $0["exifInfo"] is NSNull })
            #expect(infos.contains { $0["contentType"] as? String == "image/jpeg" })
            #expect((answer["attachmentGroups"] as? [[String: Any]])?.allSatisfy { $0["parentGlobalId"] is NSNull } == true)
        }
    }

    @Test("at most 1000 infos an answer over all groups; resultOffset/resultRecordCount page the concatenation")
    func limitAndPaging() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let first = try await client.attachments(server, .parcels, [("objectIds", "5,10,15")])
            #expect(first.attachmentGroups.map(\.objectID) == [5, 10])
            #expect(first.attachmentGroups.flatMap(\.infos).count == 1000 && first.exceededTransferLimit == true)
            var all: [Int] = first.attachmentGroups.flatMap(\.infos).compactMap { $0.int("id") }
            var parents: [Int] = first.attachmentGroups.map(\.objectID)
            while true {
                let page = try await client.attachments(server, .parcels, [
                    ("objectIds", "5,10,15"), ("resultOffset", String(all.count)), ("resultRecordCount", "150"),
                ])
                all += page.attachmentGroups.flatMap(\.infos).compactMap { $0.int("id") }
                parents += page.attachmentGroups.map(\.objectID)
                #expect(page.attachmentGroups.flatMap(\.infos).count <= 150)
                if page.exceededTransferLimit != true { break }
            }
            #expect(Set(all).count == all.count)
            let five = try await client.attachments(server, .parcels, [("objectIds", "5")]).attachmentGroups.flatMap(\.infos).count
            let fifteen = try await client.attachments(server, .parcels, [("objectIds", "15")]).attachmentGroups.flatMap(\.infos).count
            #expect(all.count == five + 1200 + fifteen)
            #expect(parents.last == 15 && parents.filter { $0 == 10 }.count > 1, "parcel 10's infos span pages")
        }
    }

    @Test("returnUrl gives the absolute URL under the layer, with the request's token appended; the URL serves the bytes")
    func urls() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let token = "abc/def+x=="
            let answer = try await client.attachments(server, .parcels, [("objectIds", "5,15"), ("returnUrl", "true"), ("token", token)])
            let infos = answer.attachmentGroups.flatMap { group in group.infos.map { (group.objectID, $0) } }
            #expect(!infos.isEmpty)
            for (parent, info) in infos {
                let id = info.int("id") ?? 0
                #expect(info["url"] as? String == "\(server.layerURL(.parcels))/\(parent)/attachments/\(id)?token=abc%2Fdef%2Bx%3D%3D")
            }
            let plain = try await client.attachments(server, .parcels, [("objectIds", "5"), ("returnUrl", "true")])
            let url = try #require(plain.attachmentGroups.first?.infos.first?["url"] as? String)
            #expect(!url.contains("?"))
            let bytes = try await client.get(url)
            #expect(bytes.status == 200 && bytes.body.count == plain.attachmentGroups.first?.infos.first?.int("size"))
        }
    }

    @Test("definitionExpression alone selects the features; cities with OBJECTID divisible by 3 have one photo")
    func definitionExpression() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let big = try await client.query(server, .cities, [("where", "POP2000 > 200000"), ("returnIdsOnly", "true"), ("f", "json")])
            let answer = try await client.attachments(server, .cities, [("definitionExpression", "POP2000 > 200000")])
            #expect(answer.attachmentGroups.map(\.objectID) == big.objectIDs.filter { $0 % 3 == 0 }.sorted())
            #expect(!answer.attachmentGroups.isEmpty)
            #expect(answer.attachmentGroups.allSatisfy { $0.infos.count == 1 && $0.infos[0]["name"] as? String == "photo-1.jpg" })
            let both = try await client.attachments(server, .parcels, [("objectIds", "5,10,15,20"), ("definitionExpression", "OBJECTID <> 10")])
            #expect(both.attachmentGroups.map(\.objectID) == [5, 15, 20])
            let neither = try await client.attachments(server, .parcels, [("returnUrl", "true")])
            #expect(neither.errorCode == 400)
            let bad = try await client.attachments(server, .parcels, [("definitionExpression", "Nope = 1")])
            #expect(bad.errorCode == 400)
        }
    }

    @Test("<oid>/attachments lists the infos; <oid>/attachments/<id> serves size bytes of the content type, the same each time")
    func perFeature() async throws {
        try await TestSupport.withServer { (server, client) async throws in
            let list = try await client.json(server.layerURL(.parcels) + "/15/attachments", [("f", "json")])
            let infos = list["attachmentInfos"] as? [[String: Any]] ?? []
            let queried = try await client.attachments(server, .parcels, [("objectIds", "15")]).attachmentGroups.first?.infos ?? []
            #expect(!infos.isEmpty && infos.compactMap { $0.int("id") } == queried.compactMap { $0.int("id") })
            #expect(infos.map { $0["name"] as? String } == queried.map { $0["name"] as? String })
            for info in infos {
                let id = try #require(info.int("id"))
                let response = try await client.get(server.layerURL(.parcels) + "/15/attachments/\(id)")
                #expect(response.status == 200)
                #expect(response.headers["Content-Type"] == info["contentType"] as? String)
                #expect(response.body.count == info.int("size"))
                let prefix: [UInt8] = info["contentType"] as? String == "application/pdf" ? Array("%PDF".utf8) : [0xFF, 0xD8]
                #expect(Array(response.body.prefix(prefix.count)) == prefix)
                #expect(try await client.get(server.layerURL(.parcels) + "/15/attachments/\(id)").body == response.body)
            }
            let none = try await client.json(server.layerURL(.parcels) + "/16/attachments", [("f", "json")])
            #expect((none["attachmentInfos"] as? [Any])?.isEmpty == true)
            let missing = try await client.json(server.layerURL(.parcels) + "/999999999/attachments", [("f", "json")])
            #expect(missing.errorCode == 404)
            let unknown = try await client.json(server.layerURL(.parcels) + "/15/attachments/1", [("f", "json")])
            #expect(unknown.errorCode == 404)
            let highways = try await client.json(server.layerURL(.highways) + "/1/attachments", [("f", "json")])
            #expect(highways.errorCode == 400)
            let query = try await client.attachments(server, .highways, [("objectIds", "1")])
            #expect(query.errorCode == 400)
        }
    }

    @Test("supportsQueryAttachments off: published false and queryAttachments refused; the feature resources still answer")
    func knobOff() async throws {
        var configuration = SampleServerConfiguration()
        try configuration.applyQueryOption("USA/MapServer/0=supportsQueryAttachments=false")
        try await TestSupport.withServer(configuration) { (server, client) async throws in
            let metadata = try await client.json(server.layerURL(.cities), [("f", "json")])
            #expect(metadata.capability("supportsQueryAttachments") == false && metadata["hasAttachments"] as? Bool == true)
            let refused = try await client.attachments(server, .cities, [("objectIds", "3")])
            #expect(refused.errorCode == 400 && (refused.error?["message"] as? String)?.contains("not supported") == true)
            let list = try await client.json(server.layerURL(.cities) + "/3/attachments", [("f", "json")])
            #expect((list["attachmentInfos"] as? [Any])?.count == 1)
            let parcels = try await client.attachments(server, .parcels, [("objectIds", "5")])
            #expect(parcels.attachmentGroups.count == 1)
        }
    }

    @Test("the secured folder serves the same operations; attachment URLs keep the folder and the token")
    func secured() async throws {
        try await SecuredDeployment.with { (deployment, client) async throws in
            let token = try #require(try await deployment.portalToken(client).token)
            let layer = deployment.portal.securedLayerURL(.parcels)
            let refused = try await client.get(layer + "/queryAttachments", [("objectIds", "5"), ("f", "json")])
            #expect(try refused.jsonObject().errorCode != nil)
            let answer = try await client.get(layer + "/queryAttachments", [("objectIds", "5"), ("returnUrl", "true"), ("token", token), ("f", "json")])
            let url = try #require(try answer.jsonObject().attachmentGroups.first?.infos.first?["url"] as? String)
            #expect(url.hasPrefix(layer + "/5/attachments/") && url.hasSuffix("?token=" + AttachmentTests.encoded(token)))
            let bytes = try await client.get(url)
            #expect(bytes.status == 200 && bytes.body.count > 99)
            let related = try await client.get(layer + "/queryRelatedRecords", [
                ("objectIds", "2"), ("relationshipId", "4"), ("returnCountOnly", "true"), ("token", token), ("f", "json"),
            ])
            #expect((try related.jsonObject()["relatedRecordGroups"] as? [[String: Any]])?.first?.int("count") == 1500)
        }
    }

    /// The token as a query value: unreserved characters kept, the rest percent-encoded.
    static func encoded(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")) ?? text
    }
}
