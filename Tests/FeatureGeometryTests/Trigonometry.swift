#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func sine(_ x: Double) -> Double { sin(x) }
func cosine(_ x: Double) -> Double { cos(x) }
