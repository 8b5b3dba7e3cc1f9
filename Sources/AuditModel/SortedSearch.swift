extension RandomAccessCollection {
    /// The index of the first element for which `isAfter` holds, in a collection ordered so that every
    /// element for which it holds comes after every element for which it does not (`endIndex` when none
    /// does): a binary search, the one every sorted table of loadaudit is asked with (line starts, word
    /// offsets, edits, report paths).
    @inlinable
    public func partitioningIndex(where isAfter: (Element) throws -> Bool) rethrows -> Index {
        var low = startIndex
        var count = self.count
        while count > 0 {
            let half = count / 2
            let middle = index(low, offsetBy: half)
            if try isAfter(self[middle]) {
                count = half
            } else {
                low = index(after: middle)
                count -= half + 1
            }
        }
        return low
    }
}
