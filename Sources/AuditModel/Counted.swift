/// A count said in English: "1 file", "2 files", "3 unsafe fixes" (with `plural` when the noun does
/// not just take an "s"). The one pluralizer of every report and summary.
public func counted(_ count: Int, _ noun: String, _ plural: String? = nil) -> String {
    "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
}
