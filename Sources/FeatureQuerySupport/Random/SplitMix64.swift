#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// SplitMix64: a tiny, fast, deterministic generator. The sample server's whole dataset and every
/// probabilistic fault come from it, so one seed always gives the same parcels and the same sequence of
/// injected failures; tests, fuzzers and benchmarks draw repeatable random cases from it, so a failing case
/// names the seed that reproduces it.
package struct SplitMix64: RandomNumberGenerator, Sendable {
    @usableFromInline var state: UInt64

    @inlinable
    package init(seed: UInt64) { state = seed }

    @inlinable
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        return Self.mix(state)
    }

    /// Uniform in [0, 1).
    @inlinable
    package mutating func unit() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [low, high).
    @inlinable
    package mutating func uniform(_ low: Double, _ high: Double) -> Double { low + (high - low) * unit() }

    /// Uniform in 0..<bound (bound > 0).
    @inlinable
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }

    /// Standard normal, by Box–Muller.
    package mutating func gaussian() -> Double {
        let u = max(unit(), 1e-300)
        let v = unit()
        return (-2 * log(u)).squareRoot() * cos(2 * Double.pi * v)
    }

    /// Log-normal with the given median and spread (σ of the logarithm).
    package mutating func logNormal(median: Double, sigma: Double) -> Double {
        median * exp(sigma * gaussian())
    }

    /// The SplitMix64 finalizer: a good 64-bit hash of one value.
    @inlinable
    package static func mix(_ value: UInt64) -> UInt64 {
        var z = value
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A hash of a seed and a value, for attributes derived on demand from an index.
    @inlinable
    package static func hash(_ seed: UInt64, _ value: UInt64) -> UInt64 {
        mix(seed &* 0x9E37_79B9_7F4A_7C15 ^ mix(value &+ 0x632B_E59B_D9B4_E019))
    }
}
