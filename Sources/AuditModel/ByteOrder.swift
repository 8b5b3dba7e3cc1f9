#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension String {
    /// Whether this string comes before `other` byte by byte in UTF-8: the order of files in every
    /// report. The same answer as `utf8.lexicographicallyPrecedes`, with `memcmp` on the strings' own
    /// storage: sorting a large tree's paths went through the generic view a byte at a time, on the
    /// one thread a scan's end waits for.
    public func precedesInUTF8(_ other: String) -> Bool {
        var first = self, second = other
        return first.withUTF8 { first in
            second.withUTF8 { second in
                let common = min(first.count, second.count)
                let order = common == 0 ? 0 : memcmp(first.baseAddress!, second.baseAddress!, common)
                return order != 0 ? order < 0 : first.count < second.count
            }
        }
    }
}
