package import FeatureQuerySupport

extension ParsedJSON {
    /// Parses JSON text (RFC 8259) from UTF-8 bytes, such as `Data` or `[UInt8]`, within `limits`.
    ///
    /// Failures are ``GeometryError``s (``GeometryError/Code/malformedJSON`` naming the byte offset, or
    /// ``GeometryError/Code/limitExceeded``), as every failure of this module's decoders is.
    package init(parsing bytes: some Collection<UInt8>, limits: DecodingLimits = .default) throws {
        do {
            self = try ParsedJSON(reading: bytes, limits: limits.jsonReading)
        } catch {
            throw GeometryError(error)
        }
    }

    /// Parses JSON text (RFC 8259) within `limits`.
    package init(parsing text: String, limits: DecodingLimits = .default) throws {
        do {
            self = try ParsedJSON(reading: text, limits: limits.jsonReading)
        } catch {
            throw GeometryError(error)
        }
    }
}

extension DecodingLimits {
    /// The bounds that apply to reading the JSON text itself.
    package var jsonReading: JSONReadingLimits {
        JSONReadingLimits(maxBytes: maxBytes, maxDepth: maxDepth)
    }
}

extension GeometryError {
    /// The geometry error for a JSON reading failure: the same message, under this module's codes.
    package init(_ error: JSONReadError) {
        switch error.kind {
        case .malformed: self.init(.malformedJSON, error.message)
        case .limitExceeded: self.init(.limitExceeded, error.message)
        }
    }
}
