/// Just enough XML for S3's answers: the text of named elements, in document order. S3's answers that the
/// client reads (`Error`, `InitiateMultipartUploadResult`, `ListMultipartUploadsResult`, STS's credentials)
/// are flat records of text elements without attributes that matter, so a scanner is enough and the module
/// needs no XML parser (Foundation's would bring libxml2 into the worker).
enum S3XML {
    /// The text of every `<name>…</name>` (or `<name attr="…">`) in `xml`, entities decoded.
    static func texts(_ name: String, in xml: Substring) -> [String] {
        elements(name, in: xml).map { decodeEntities($0) }
    }

    /// The first element's text, or nil.
    static func text(_ name: String, in xml: Substring) -> String? {
        elements(name, in: xml).first.map { decodeEntities($0) }
    }

    /// The raw content of every `name` element (which may hold other elements).
    static func elements(_ name: String, in xml: Substring) -> [Substring] {
        var found: [Substring] = []
        var rest = xml
        let close = "</\(name)>"
        while let open = rest.firstRange(of: "<\(name)") {
            let afterName = rest[open.upperBound...]
            guard let next = afterName.first, next == ">" || next == " " || next == "/" else {
                rest = afterName
                continue
            }
            guard let tagEnd = afterName.firstIndex(of: ">") else { break }
            if afterName[afterName.startIndex..<tagEnd].hasSuffix("/") {  // <name/>: empty
                found.append(afterName[tagEnd..<tagEnd])
                rest = afterName[afterName.index(after: tagEnd)...]
                continue
            }
            let content = afterName[afterName.index(after: tagEnd)...]
            guard let end = content.firstRange(of: close) else { break }
            found.append(content[..<end.lowerBound])
            rest = content[end.upperBound...]
        }
        return found
    }

    /// `&amp;`, `&lt;`, `&gt;`, `&quot;`, `&apos;` and numeric references.
    static func decodeEntities(_ text: Substring) -> String {
        guard text.contains("&") else { return String(text) }
        var output = ""
        var rest = text
        while let amp = rest.firstIndex(of: "&") {
            output += rest[..<amp]
            guard let semicolon = rest[amp...].firstIndex(of: ";") else { break }
            let entity = rest[rest.index(after: amp)..<semicolon]
            switch entity {
            case "amp": output += "&"
            case "lt": output += "<"
            case "gt": output += ">"
            case "quot": output += "\""
            case "apos": output += "'"
            default:
                let scalar: Unicode.Scalar? =
                    if entity.hasPrefix("#x") { UInt32(entity.dropFirst(2), radix: 16).flatMap { Unicode.Scalar($0) } }
                    else if entity.hasPrefix("#") { UInt32(entity.dropFirst(), radix: 10).flatMap { Unicode.Scalar($0) } }
                    else { nil }
                output += scalar.map { String(Character($0)) } ?? "&\(entity);"
            }
            rest = rest[rest.index(after: semicolon)...]
        }
        return output + rest
    }

    /// `text` escaped for element content.
    static func escape(_ text: String) -> String {
        var output = ""
        for character in text {
            switch character {
            case "&": output += "&amp;"
            case "<": output += "&lt;"
            case ">": output += "&gt;"
            case "\"": output += "&quot;"
            default: output.append(character)
            }
        }
        return output
    }
}
