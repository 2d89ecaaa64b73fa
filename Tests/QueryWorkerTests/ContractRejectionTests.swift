import FeatureGeometry
import Foundation
import QueryLanguage
import Testing

@testable import QueryWorker
import FeatureQuerySupport
import WorkerTestSupport
@testable import RequestContract

/// One malformed message and exactly how the decoder must answer it.
struct RejectionCase: Sendable, CustomTestStringConvertible {
    var name: String
    var value: [UInt8]?
    var key: String? = nil
    var limits = RequestLimits()
    var allowFreeClauses = true
    /// The worker's credentials (by default none: no credentials file).
    var credentials: CredentialNames = .noCredentialsFile
    var code: ContractError.Code
    var message: String
    var path: String?
    var requestId: String? = "r-1"
    var taskId: String? = "t-1"
    /// The schema the message claims to satisfy, and whether it rejects it too (some checks only the worker
    /// can make: clause syntax, named queries, extent order, the key, the size, unsupported features).
    var schema = "request"
    var schemaRejects = true

    var testDescription: String { "\(code): \(name)" }

    static let layerURL = "https://gis.example.org/arcgis/rest/services/Parcels/FeatureServer/0"
    /// A worker whose one credential, `county-gis`, covers the Parcels service only.
    static let countyCredentials: CredentialNames = {
        let json = CredentialsFolder.file(
            SampleCredentials.apiKey("county-gis", scope: "https://gis.example.org/arcgis/rest/services/Parcels", variable: "KEY"))
        guard let credentials = try? FixedCredentials(json: json) else { return .noCredentialsFile }
        return .current(credentials)
    }()
    static let target = #"{"type":"arcgis","url":"\#(layerURL)"}"#

    /// A request with ids r-1 and t-1; `extra` members go at the top level.
    static func request(query: String = "{}", targets: String = "[\(target)]", extra: String = "",
                        ids: String = #""requestId":"r-1","taskId":"t-1""#) -> [UInt8] {
        Array(#"{\#(ids),"targets":\#(targets),"query":\#(query)\#(extra)}"#.utf8)
    }

    static func clauseMessage(_ text: String) -> String {
        do {
            _ = try WhereClause(text)
            return "(the clause parses)"
        } catch {
            return error.message
        }
    }

    static func catalogMessage(_ request: ClauseRequest, allowFree: Bool) -> String {
        do {
            _ = try NamedQueryCatalog(allowFreeClauses: allowFree).resolve(request)
            return "(resolves)"
        } catch {
            return error.message
        }
    }

    static func geometryMessage(_ json: String, esri: Bool) -> (path: String, message: String) {
        do {
            _ = esri ? try EsriJSON.decode(json) : try GeoJSON.decode(json)
            return ("", "(decodes)")
        } catch let error as GeometryError {
            return (error.path.map { String($0.dropFirst()) } ?? "", error.message)
        } catch {
            return ("", "\(error)")
        }
    }

    static let all: [RejectionCase] = {
        let base = request()
        let fields = "where, namedWhere, extent, geometry, spatialRelationship, outFields, returnGeometry, "
            + "outSpatialReference, maxFeatures, result, objectIds, time, orderBy, statistics, groupBy, relationship, "
            + "relatedWhere, relatedOutFields, relatedOrderBy"
        let badRings = #"{"rings":[[[0,0],[1,"x"],[1,1],[0,0]]]}"#
        let rings = geometryMessage(badRings, esri: true)
        let emptyPoint = #"{"type":"Point","coordinates":[]}"#
        let point = geometryMessage(emptyPoint, esri: false)
        let seventeen = "[" + (0..<17).map { #"{"type":"arcgis","url":"https://gis.example.org/S\#($0)/MapServer/0"}"# }
            .joined(separator: ",") + "]"
        return [
            RejectionCase(
                name: "tombstone", value: nil, code: .invalidJSON,
                message: "the message has no value (a tombstone); a request is a JSON object", requestId: nil, taskId: nil,
                schemaRejects: false),
            RejectionCase(
                name: "truncated JSON", value: Array(#"{"requestId":"r-1","#.utf8), code: .invalidJSON,
                message: "the message is not valid JSON: expected a member name in double quotes but found the end of the input at byte 19",
                requestId: nil, taskId: nil),
            RejectionCase(
                name: "not UTF-8", value: Array(#"{"requestId":"r"#.utf8) + [0xFF] + Array(#""}"#.utf8), code: .invalidJSON,
                message: "the message is not valid JSON: a string that is not valid UTF-8 at byte 16", requestId: nil, taskId: nil),
            RejectionCase(
                name: "not an object", value: Array("[1,2]".utf8), code: .invalidJSON,
                message: "the message is an array of 2, not a JSON object; a request is an object with requestId, targets and query",
                requestId: nil, taskId: nil),
            RejectionCase(
                name: "over the size limit", value: base, limits: RequestLimits(maxMessageBytes: 64), code: .tooLarge,
                message: "the message is \(base.count) bytes; this worker accepts at most 64 (send fewer targets or a simpler geometry)",
                requestId: nil, taskId: nil, schemaRejects: false),
            RejectionCase(
                name: "no targets field", value: Array(#"{"requestId":"r-1","taskId":"t-1","query":{}}"#.utf8),
                code: .missingField, message: "targets: required field missing from the request", path: "targets"),
            RejectionCase(
                name: "extent without ymax", value: request(query: #"{"extent":{"xmin":1,"ymin":2,"xmax":3}}"#),
                code: .missingField, message: "query.extent.ymax: required field missing from query.extent",
                path: "query.extent.ymax"),
            RejectionCase(
                name: "requestId is a number", value: request(ids: #""requestId":5,"taskId":"t-1""#), code: .invalidType,
                message: "requestId: expected a string, found the number 5", path: "requestId", requestId: nil),
            RejectionCase(
                name: "fractional timeout", value: request(extra: #","timeoutMs":1.5"#), code: .invalidType,
                message: "timeoutMs: expected an integer, found the number 1.5", path: "timeoutMs"),
            RejectionCase(
                name: "null taskId", value: request(ids: #""requestId":"r-1","taskId":null"#), code: .invalidType,
                message: "taskId: expected a string, found null", path: "taskId", taskId: nil),
            RejectionCase(
                name: "February 30", value: request(extra: #","deadline":"2025-02-30T00:00:00Z""#), code: .invalidValue,
                message: #"deadline: "2025-02-30T00:00:00Z" is not an RFC 3339 date-time with a time zone, such as 2025-06-01T12:00:00Z"#,
                path: "deadline"),
            RejectionCase(
                name: "negative timeout", value: request(extra: #","timeoutMs":-5"#), code: .invalidValue,
                message: "timeoutMs: the number -5 is out of range; expected 1 to 9007199254740991", path: "timeoutMs"),
            RejectionCase(
                name: "deadline and timeout", value: request(extra: #","deadline":"2025-06-01T12:00:00Z","timeoutMs":5"#),
                code: .invalidValue, message: "timeoutMs: give deadline or timeoutMs, not both", path: "timeoutMs"),
            RejectionCase(
                name: "wkid 0",
                value: request(query: #"{"extent":{"xmin":1,"ymin":2,"xmax":3,"ymax":4,"spatialReference":{"wkid":0}}}"#),
                code: .invalidValue,
                message: "query.extent.spatialReference.wkid: the number 0 is out of range; expected 1 to 2147483647",
                path: "query.extent.spatialReference.wkid"),
            RejectionCase(
                name: "unknown result kind", value: request(query: #"{"result":"idz"}"#), code: .invalidValue,
                message: #"query.result: "idz" is not one of "ids", "count", "features", "catalog", "statistics", "extent", "distinct", "related", "attachments" (did you mean "ids"?)"#,
                path: "query.result"),
            RejectionCase(
                name: "inverted extent", value: request(query: #"{"extent":{"xmin":10,"ymin":2,"xmax":5,"ymax":4}}"#),
                code: .invalidValue,
                message: "query.extent.xmin: xmin (10) is greater than xmax (5); an extent crossing the antimeridian must be sent as two requests",
                path: "query.extent.xmin", schemaRejects: false),
            RejectionCase(
                name: "layers with a layer URL",
                value: request(targets: #"[{"type":"arcgis","url":"\#(layerURL)","layers":[1]}]"#), code: .invalidValue,
                message: "targets[0].layers: \(layerURL) is a layer URL; layers lists sublayers of a service URL (…/MapServer or …/FeatureServer)",
                path: "targets[0].layers"),
            RejectionCase(
                name: "a repeated target", value: request(targets: "[\(target),\(target)]"), code: .invalidValue,
                message: "targets[1]: repeats targets[0]", path: "targets[1]"),
            RejectionCase(
                name: "cancel false", value: Array(#"{"taskId":"t-1","cancel":false}"#.utf8), code: .invalidValue,
                message: "cancel: must be true; a message with cancel is a cancel (send nothing to not cancel)", path: "cancel",
                requestId: nil, schema: "cancel"),
            RejectionCase(
                name: "unknown top-level field", value: request(extra: #","colour":1"#), code: .unknownField,
                message: "colour: unknown field; the fields of a request are requestId, taskId, deadline, timeoutMs, targets, query, credential, progress, delivery, format, compression",
                path: "colour"),
            RejectionCase(
                name: "progress as a string", value: request(extra: #","progress":"yes""#), code: .invalidType,
                message: #"progress: expected true or false, found the string "yes""#, path: "progress"),
            RejectionCase(
                name: "progress as a number", value: request(extra: #","progress":1"#), code: .invalidType,
                message: "progress: expected true or false, found the number 1", path: "progress"),
            RejectionCase(
                name: "misspelt query field", value: request(query: #"{"extnt":{}}"#), code: .unknownField,
                message: #"query.extnt: unknown field (did you mean "extent"?); the fields of query are \#(fields)"#,
                path: "query.extnt"),
            RejectionCase(
                name: "17 targets", value: request(targets: seventeen), code: .tooManyTargets,
                message: "targets: 17 targets; a request may name at most 16 (split it into several requests)", path: "targets"),
            RejectionCase(
                name: "empty targets", value: request(targets: "[]"), code: .noTargets,
                message: "targets: the array is empty; name 1 to 16 layers or services", path: "targets"),
            RejectionCase(
                name: "unfinished clause", value: request(query: #"{"where":"UseType = "}"#), code: .invalidWhere,
                message: "query.where: " + clauseMessage("UseType = "), path: "query.where", schemaRejects: false),
            RejectionCase(
                name: "misspelt named query", value: request(query: #"{"namedWhere":"govrnment"}"#), code: .unknownNamedQuery,
                message: "query.namedWhere: " + catalogMessage(.named("govrnment"), allowFree: true), path: "query.namedWhere",
                schemaRejects: false),
            RejectionCase(
                name: "where when only named queries are allowed", value: request(query: #"{"where":"UseType = 'Government'"}"#),
                allowFreeClauses: false, code: .freeClausesDisabled,
                message: "query.where: " + catalogMessage(.free("UseType = 'Government'"), allowFree: false), path: "query.where",
                schemaRejects: false),
            RejectionCase(
                name: "an OGC target without a collection, outside a catalog",
                value: request(targets: #"[{"type":"ogc","url":"https://ogc.example.org/api"}]"#), code: .missingField,
                message: "targets[0].collection: an ogc target names the collection to query; only a result: catalog "
                    + "request may name a landing page alone (to list its collections)",
                path: "targets[0].collection"),
            RejectionCase(
                name: "a catalog with a where clause",
                value: request(query: #"{"result":"catalog","where":"UseType = 'Residential'"}"#), code: .invalidValue,
                message: "query.where: a result: catalog request lists each target's collections or layers and selects "
                    + "no features, so it takes no where; drop it, or ask for ids, count, features, statistics, extent, distinct, related or attachments",
                path: "query.where"),
            RejectionCase(
                name: "a catalog with maxFeatures", value: request(query: #"{"maxFeatures":10,"result":"catalog"}"#),
                code: .invalidValue,
                message: "query.maxFeatures: a result: catalog request lists each target's collections or layers and "
                    + "selects no features, so it takes no maxFeatures; drop it, or ask for ids, count, features, statistics, extent, distinct, related or attachments",
                path: "query.maxFeatures"),
            RejectionCase(
                name: "a credential name with a space", value: request(extra: #","credential":"county gis""#),
                code: .invalidValue,
                message: #"credential: "county gis" is not a credential name (letters, digits, '_', '.' and '-')"#,
                path: "credential"),
            RejectionCase(
                name: "a credential on a worker without credentials file", value: request(extra: #","credential":"county-gis""#),
                code: .unknownCredential,
                message: #"credential: this worker has no credentials file, so the credential "county-gis" is not configured; send the request without credential for public layers, or ask the operator to configure it"#,
                path: "credential", schemaRejects: false),
            RejectionCase(
                name: "a credential the worker does not have", value: request(extra: #","credential":"County-GIS""#),
                credentials: countyCredentials, code: .unknownCredential,
                message: #"credential: no credential "County-GIS" is configured on this worker (names are case-sensitive); ask the operator to add it to the credentials file, or send the request without credential"#,
                path: "credential", schemaRejects: false),
            RejectionCase(
                name: "a credential that does not cover every target",
                value: request(
                    targets: #"[\#(target),{"type":"arcgis","url":"https://gis.example.org/arcgis/rest/services/Roads/FeatureServer/2"}]"#,
                    extra: #","credential":"county-gis""#),
                credentials: countyCredentials, code: .credentialScopeMismatch,
                message: "credential: the credential \"county-gis\" does not cover targets[1] "
                    + "(https://gis.example.org/arcgis/rest/services/Roads/FeatureServer/2): it applies under "
                    + "https://gis.example.org:443/arcgis/rest/services/Parcels only; name a credential for that server, or "
                    + "send its targets in another request",
                path: "credential", schemaRejects: false),
            RejectionCase(
                name: "a string coordinate", value: request(query: #"{"geometry":\#(badRings)}"#), code: .invalidGeometry,
                message: "query.geometry\(rings.path): not a usable Esri JSON geometry: \(rings.message)",
                path: "query.geometry\(rings.path)"),
            RejectionCase(
                name: "a string z in an Esri path", value: request(query: #"{"geometry":{"paths":[[[0,0,"a"],[1,1]]]}}"#),
                code: .invalidGeometry,
                message: "query.geometry.paths[0][0][2]: a position's z must be a number or null, found the string \"a\"",
                path: "query.geometry.paths[0][0][2]"),
            RejectionCase(
                name: "an object m in a GeoJSON point", value: request(query: #"{"geometry":{"type":"Point","coordinates":[1,2,null,{}]}}"#),
                code: .invalidGeometry, message: "query.geometry.coordinates[3]: a position's m must be a number or null, found an object",
                path: "query.geometry.coordinates[3]"),
            RejectionCase(
                name: "an empty GeoJSON point", value: request(query: #"{"geometry":\#(emptyPoint)}"#), code: .invalidGeometry,
                message: "query.geometry\(point.path): not a usable GeoJSON geometry: \(point.message)",
                path: "query.geometry\(point.path)"),
            RejectionCase(
                name: "ftp URL", value: request(targets: #"[{"type":"arcgis","url":"ftp://gis.example.org/x/FeatureServer/0"}]"#),
                code: .invalidURL, message: "targets[0].url: ftp://gis.example.org/x/FeatureServer/0 is not an http:// or https:// URL",
                path: "targets[0].url"),
            RejectionCase(
                name: "URL with a token", value: request(targets: #"[{"type":"arcgis","url":"\#(layerURL)?token=abc"}]"#),
                code: .invalidURL,
                message: "targets[0].url: \(layerURL)?token=abc has a query string or fragment; target URLs carry none (credentials are configured by the operator)",
                path: "targets[0].url"),
            RejectionCase(
                name: "an ImageServer URL",
                value: request(targets: #"[{"type":"arcgis","url":"https://gis.example.org/arcgis/rest/services/Elevation/ImageServer"}]"#),
                code: .invalidURL,
                message: "targets[0].url: https://gis.example.org/arcgis/rest/services/Elevation/ImageServer is not an ArcGIS FeatureServer or MapServer URL: expected …/FeatureServer or …/MapServer, optionally followed by a layer id (…/FeatureServer/0)",
                path: "targets[0].url"),
            RejectionCase(
                name: "keyed by another id", value: base, key: "r-1", code: .keyMismatch,
                message: #"the message key "r-1" is not the taskId "t-1"; key every message by its taskId (the requestId when there is no taskId) so a task's messages reach the same worker in order"#,
                schemaRejects: false),
            // The operator's maxTargets, not the contract's 16, bounds targets.
            RejectionCase(
                name: "3 targets to a worker with maxTargets 2", value: request(targets: threeLayerURLs),
                limits: RequestLimits(maxTargets: 2), code: .tooManyTargets,
                message: "targets: 3 targets; a request may name at most 2 (split it into several requests)", path: "targets",
                schemaRejects: false),
            RejectionCase(
                name: "layers lists naming 120 layers", value: request(targets: twoServicesOf60Layers), code: .tooManyLayers,
                message: "targets: the targets name 120 layers; this worker queries at most 100 per request (split it into "
                    + "several requests)",
                path: "targets", schemaRejects: false),
            RejectionCase(
                name: "3 layer URLs to a worker with maxLayers 2", value: request(targets: threeLayerURLs),
                limits: RequestLimits(maxLayers: 2), code: .tooManyLayers,
                message: "targets: the targets name 3 layers; this worker queries at most 2 per request (split it into "
                    + "several requests)",
                path: "targets", schemaRejects: false),
            RejectionCase(
                name: "features in a spatial reference GeoJSON cannot carry",
                value: request(query: #"{"result":"features","outSpatialReference":{"wkid":2229}}"#),
                code: .unsupportedSpatialReference,
                message: "query.outSpatialReference: wkid 2229 cannot be returned: result features are GeoJSON in WGS 84, so "
                    + "only 4326 or Web Mercator (3857, 102100) can be asked for; omit outSpatialReference to get WGS 84",
                path: "query.outSpatialReference", schemaRejects: false),
        ]
    }()

    static let threeLayerURLs = "[" + (0..<3).map { #"{"type":"arcgis","url":"https://gis.example.org/S\#($0)/MapServer/0"}"# }
        .joined(separator: ",") + "]"
    static let twoServicesOf60Layers = "[" + (0..<2).map { service in
        let layers = (0..<60).map(String.init).joined(separator: ",")
        return #"{"type":"arcgis","url":"https://gis.example.org/S\#(service)/MapServer","layers":[\#(layers)]}"#
    }.joined(separator: ",") + "]"

    /// The codes the decoder can answer with; each needs a case.
    static let rejectionCodes: Set<ContractError.Code> = [
        .invalidJSON, .missingField, .invalidType, .invalidValue, .unknownField, .tooManyTargets, .noTargets, .tooLarge,
        .invalidWhere, .unknownNamedQuery, .freeClausesDisabled, .unknownCredential, .credentialScopeMismatch,
        .invalidGeometry, .invalidURL, .keyMismatch, .tooManyLayers, .unsupportedSpatialReference,
    ]
}

@Suite struct ContractRejectionTests {
    @Test(arguments: RejectionCase.all)
    func rejection(_ example: RejectionCase) throws {
        let decoder = try ContractSupport.decoder(
            limits: example.limits, allowFreeClauses: example.allowFreeClauses, credentials: example.credentials)
        let message = decoder.decode(example.value, key: example.key.map { Array($0.utf8) }, receivedAt: 1_000)
        guard case .rejected(let rejection) = message else {
            Issue.record("not rejected: \(message)")
            return
        }
        #expect(rejection.code == example.code)
        #expect(rejection.message == example.message)
        #expect(rejection.path == example.path)
        #expect(rejection.requestId == example.requestId)
        #expect(rejection.taskId == example.taskId)
        #expect(rejection.error.retryable == false)
    }

    @Test func everyRejectionCodeHasACase() {
        let covered = Set(RejectionCase.all.map(\.code))
        #expect(covered == RejectionCase.rejectionCodes)
    }

    @Test func rejectionsKeepTheIdsWhenSomethingElseIsWrong() throws {
        let value = RejectionCase.request(query: #"{"where":"x = "}"#, ids: #""requestId":"only-request""#)
        guard case .rejected(let rejection) = try ContractSupport.decoder().decode(value, key: nil, receivedAt: 0) else {
            Issue.record("not rejected")
            return
        }
        #expect(rejection.requestId == "only-request")
        #expect(rejection.taskId == "only-request")
        #expect(rejection.details?["column"] != nil)
    }

    @Test func unknownNamedQueryListsTheNames() throws {
        let value = RejectionCase.request(query: #"{"namedWhere":"govrnment"}"#)
        guard case .rejected(let rejection) = try ContractSupport.decoder().decode(value, key: nil, receivedAt: 0) else {
            Issue.record("not rejected")
            return
        }
        #expect(rejection.message.contains("did you mean 'government'?"))
        #expect(rejection.details?["names"] == .array(try NamedQueryCatalog().names.map { .string($0) }))
    }

    @Test(.enabled(if: ContractSupport.schemaTestsEnabled, "Python with jsonschema is missing (scripts/setup-deps installs it)"))
    func theSchemaRejectsWhatItCanExpress() async throws {
        let cases = RejectionCase.all.filter { $0.value != nil }
        let verdicts = try await ContractSupport.validate(cases.map { ($0.schema, $0.value ?? []) })
        for (example, verdict) in zip(cases, verdicts) {
            #expect(verdict.valid != example.schemaRejects, "\(example.name): schema valid = \(verdict.valid) \(verdict.errors)")
        }
    }
}
