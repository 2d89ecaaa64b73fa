/// One generated message for the requests topic: its value and key, and how it was made.
///
/// The kind is kept so that a run can say which family of inputs produced an outcome (and a failure can be
/// reproduced from the seed and the message's index alone).
package struct HostileMessage: Sendable, Hashable {
    /// How a message was generated.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        /// A contract example, unchanged (apart from unique ids when asked for).
        case valid = "valid"
        /// A contract example with a few bytes flipped, replaced, inserted, cut or repeated.
        case byteMutation = "byte_mutation"
        /// A contract example with one or two values replaced, removed, added or retyped.
        case valueMutation = "value_mutation"
        /// A contract example with one field dropped, duplicated or given another JSON type.
        case fieldSurgery = "field_surgery"
        /// A huge or odd number (`1e999`, 30 digits, `-0`, 2^53 + 1) in a numeric or id place.
        case hugeNumber = "huge_number"
        /// Arrays or objects nested hundreds or thousands deep.
        case deepNesting = "deep_nesting"
        /// A string of up to 2 MB (some below, some above the 1 MB message limit).
        case longString = "long_string"
        /// Bytes that are not UTF-8 inside a string, or escapes of lone surrogates.
        case badUTF8 = "bad_utf8"
        /// A JSON value that is not an object, an empty value, or a tombstone (no value at all).
        case wrongShape = "wrong_shape"
        /// Uniformly random bytes, or random bytes drawn from JSON's punctuation.
        case randomBytes = "random_bytes"
    }

    /// How it was made.
    package var kind: Kind
    /// The message value; `nil` is a tombstone.
    package var value: [UInt8]?
    /// The message key; mostly `nil` (a request without a key is accepted), sometimes text or random bytes.
    package var key: [UInt8]?
    /// The requestId the message was generated with before mutation, when ids were made unique: a live run
    /// matches results (which carry no offset) to messages by it.
    package var intendedRequestId: String?
}
