extension SettingsKey {
    // The bounds of ``WorkerSettings/Buffers``: the read-ahead of requests and the producer's queue of outcomes.
    package static let readAheadMessages = SettingsKey(
        "readAheadMessages", .integer,
        "Requests fetched ahead of the worker, all partitions together (librdkafka queued.min.messages); 1 to 10000000.")
    package static let readAheadBytes = SettingsKey(
        "readAheadBytes", .size,
        "Bytes of requests fetched ahead, all partitions together; also caps one fetch (queued.max.messages.kbytes, fetch.max.bytes).")
    package static let producerQueueMessages = SettingsKey(
        "producerQueueMessages", .integer,
        "Outcome messages queued for Kafka at most; publishing waits above it (queue.buffering.max.messages).")
    package static let producerQueueBytes = SettingsKey(
        "producerQueueBytes", .size,
        "Bytes of outcome messages queued for Kafka at most, at least maxResultBytes + 16KiB (queue.buffering.max.kbytes).")

    /// The buffer keys, in the order `--help` lists them.
    static let bufferKeys = [readAheadMessages, readAheadBytes, producerQueueMessages, producerQueueBytes]

    /// ``defaultText`` of the buffer keys.
    static func bufferDefaultTexts(_ defaults: WorkerSettings) -> [String: String] {
        [
            readAheadMessages.name: String(defaults.buffers.readAheadMessages),
            readAheadBytes.name: sizeText(defaults.buffers.readAheadBytes),
            producerQueueMessages.name: String(defaults.buffers.producerQueueMessages),
            producerQueueBytes.name: sizeText(defaults.buffers.producerQueueBytes) + " (at least twice maxResultBytes + 16KiB)",
        ]
    }
}

extension SettingsResolver {
    /// The buffer bounds; after the limits, which the producer queue must hold a result part of.
    mutating func resolveBuffers(_ settings: inout WorkerSettings) throws(SettingsError) {
        if let found = try find(.readAheadMessages) { settings.buffers.readAheadMessages = try found.integer(in: 1...10_000_000) }
        // librdkafka takes KiB, at most 2,097,151 of them.
        if let found = try find(.readAheadBytes) { settings.buffers.readAheadBytes = try found.size(in: (1 << 10)...(2_097_151 << 10)) }
        if let found = try find(.producerQueueMessages) {
            settings.buffers.producerQueueMessages = try found.integer(in: 1...10_000_000)
        }
        let part = settings.limits.maxResultBytes + WorkerSettings.Limits.messageOverhead
        guard let found = try find(.producerQueueBytes) else {
            settings.buffers.producerQueueBytes = max(settings.buffers.producerQueueBytes, 2 * part)
            return
        }
        let bytes = try found.size(in: (1 << 10)...(16 << 30))
        guard bytes >= part else {
            throw found.error(
                "producerQueueBytes must hold one result part, maxResultBytes (\(settings.limits.maxResultBytes)) + "
                    + "\(WorkerSettings.Limits.messageOverhead) bytes: a larger message would wait for room forever",
                code: .conflict)
        }
        settings.buffers.producerQueueBytes = bytes
    }
}
