import PropertyBased
import StreamCompression
import Testing

/// The decompressor without I/O: whatever the payload (random bytes, repetitive JSON, empty) and wherever the
/// compressed stream is cut into chunks, decompressing gives back exactly what was compressed; a stream cut short,
/// followed by other bytes, or not compressed at all is an error, never a silent short result.
@Suite struct StreamDecompressorTests {
    /// One sample: the payload, the algorithm, and the chunk sizes the compressed stream is fed in.
    struct Sample: Sendable {
        var payload: [UInt8]
        var algorithm: CompressionAlgorithm
        var cuts: [Int]
    }

    struct NoContext: Error {}

    static let samples = Generator<Sample, Shrink.None<Sample>>(run: { rng in
        let length = [0, 1, Int.random(in: 2...300, using: &rng), Int.random(in: 1_000...400_000, using: &rng)].randomElement(using: &rng) ?? 0
        // Half random bytes (incompressible), half JSON-like text (compresses well, so chunks hold much output).
        let repetitive = Bool.random(using: &rng)
        let alphabet = Array(#"{"type":"Feature","properties":{"id":12}},"#.utf8)
        let payload = (0..<length).map { index in
            repetitive ? alphabet[index % alphabet.count] : UInt8.random(in: 0...255, using: &rng)
        }
        let cuts = (0..<8).map { _ in [1, 2, 7, 64, 4_096, 70_000].randomElement(using: &rng) ?? 1 }
        return Sample(payload: payload, algorithm: Bool.random(using: &rng) ? .gzip : .zstd, cuts: cuts)
    })

    static func compress(_ payload: [UInt8], _ algorithm: CompressionAlgorithm) throws -> [UInt8] {
        guard var compressor = StreamCompressor(algorithm) else { throw NoContext() }
        var output: [UInt8] = []
        // Fed in two calls, as the writer feeds batches.
        let half = payload.count / 2
        try compressor.compress(Array(payload[..<half]), finishing: false, into: &output)
        try compressor.compress(Array(payload[half...]), finishing: true, into: &output)
        return output
    }

    /// Decompresses `compressed` fed in chunks of the sizes `cuts` gives in turn.
    static func decompress(_ compressed: [UInt8], _ algorithm: CompressionAlgorithm?, cuts: [Int]) throws -> [UInt8] {
        guard var decompressor = StreamDecompressor(algorithm) else { throw NoContext() }
        var output: [UInt8] = []
        var offset = 0
        var turn = 0
        while offset < compressed.count {
            let size = cuts.isEmpty ? compressed.count : cuts[turn % cuts.count]
            let end = min(compressed.count, offset + size)
            try decompressor.decompress(compressed[offset..<end], into: &output)
            offset = end
            turn += 1
        }
        try decompressor.finish()
        return output
    }

    @Test func roundTripsOverRandomPayloadsAndChunkBoundaries() async {
        await propertyCheck(count: 200, input: Self.samples) { sample in
            let compressed = try Self.compress(sample.payload, sample.algorithm)
            let decoded = try Self.decompress(compressed, sample.algorithm, cuts: sample.cuts)
            #expect(decoded == sample.payload, "\(sample.algorithm), \(sample.payload.count) bytes, cuts \(sample.cuts)")
        }
    }

    @Test(arguments: CompressionAlgorithm.allCases)
    func everyCutOfASmallStreamRoundTrips(algorithm: CompressionAlgorithm) throws {
        let payload = Array(String(repeating: #"{"id":1,"name":"parcel"}"#, count: 40).utf8)
        let compressed = try Self.compress(payload, algorithm)
        for cut in 1...compressed.count {
            #expect(try Self.decompress(compressed, algorithm, cuts: [cut]) == payload, "cut \(cut)")
        }
    }

    @Test(arguments: CompressionAlgorithm.allCases)
    func aTruncatedStreamFailsAtTheEnd(algorithm: CompressionAlgorithm) throws {
        let compressed = try Self.compress(Array(repeating: UInt8(ascii: "a"), count: 10_000), algorithm)
        #expect(throws: CodecFailure.self) { try Self.decompress(Array(compressed.dropLast(3)), algorithm, cuts: [5]) }
    }

    @Test(arguments: CompressionAlgorithm.allCases)
    func bytesAfterTheStreamFail(algorithm: CompressionAlgorithm) throws {
        let compressed = try Self.compress(Array("payload".utf8), algorithm)
        #expect(throws: CodecFailure.self) { try Self.decompress(compressed + [0x7B], algorithm, cuts: [3]) }
    }

    @Test(arguments: CompressionAlgorithm.allCases)
    func bytesThatAreNotAStreamFail(algorithm: CompressionAlgorithm) {
        #expect(throws: CodecFailure.self) { try Self.decompress(Array(#"{"type":"FeatureCollection"}"#.utf8), algorithm, cuts: [4]) }
    }

    @Test func withoutCompressionBytesPassThrough() throws {
        let payload: [UInt8] = Array(0...255)
        #expect(try Self.decompress(payload, nil, cuts: [3, 100]) == payload)
    }
}
