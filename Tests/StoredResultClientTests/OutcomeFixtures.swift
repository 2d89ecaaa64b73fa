import FeatureQueryClient
import FeatureQuerySupport
import Foundation

/// Result messages as the worker publishes them (contract 1.3), with a stored layer's `location`.
enum OutcomeFixtures {
    /// The `location` member's JSON for `location` (as ResultMessage+Location writes it).
    static func locationJSON(_ location: StoredResultLocation) -> String {
        var members = [
            #""url":\#(quoted(location.url))"#, #""httpUrl":\#(quoted(location.httpURL))"#,
            #""expiresAt":"\#(RFC3339.string(fromMilliseconds: Int64(location.expiresAt.timeIntervalSince1970 * 1000)))""#,
            #""bytes":\#(location.bytes)"#, #""sha256":"\#(location.sha256)""#, #""contentType":"\#(location.contentType)""#,
        ]
        if let encoding = location.contentEncoding { members.append(#""contentEncoding":"\#(encoding)""#) }
        if let features = location.features { members.append(#""features":\#(features)"#) }
        if let ids = location.ids { members.append(#""ids":\#(ids)"#) }
        return "{" + members.joined(separator: ",") + "}"
    }

    /// A succeeded result of one ArcGIS layer whose selection is stored (`location` given as JSON text, so tests
    /// can break it).
    static func result(requestId: String = "r-1", locationJSON: String?) -> String {
        let location = locationJSON.map { #","location":\#($0)"# } ?? #","objectIds":[1,2]"#
        return #"""
            {"requestId":"\#(requestId)","taskId":"t-1","status":"succeeded","receivedAt":"2026-12-06T08:00:00.000Z","finishedAt":"2026-12-06T08:00:01.000Z","durationMs":1000,"worker":"w-1","layers":[{"url":"http://127.0.0.1/arcgis/rest/services/P/FeatureServer/0","layerId":0,"status":"succeeded","count":2000,"complete":true\#(location)}]}
            """#
    }

    static func result(requestId: String = "r-1", location: StoredResultLocation) -> String {
        result(requestId: requestId, locationJSON: locationJSON(location))
    }

    private static func quoted(_ text: String) -> String {
        var writer = JSONWriter(capacity: text.utf8.count + 2)
        writer.string(text)
        return String(decoding: writer.bytes, as: UTF8.self)
    }
}
