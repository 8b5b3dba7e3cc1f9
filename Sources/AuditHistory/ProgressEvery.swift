/// How often `progress` samples the history.
public enum ProgressEvery: Equatable, Sendable, CustomStringConvertible {
    case day, week, month
    case commits(Int)

    /// `day`, `week`, `month` or `N-commits`.
    public init?(_ text: String) {
        switch text {
        case "day": self = .day
        case "week": self = .week
        case "month": self = .month
        default:
            guard text.hasSuffix("-commits"), let count = Int(text.dropLast("-commits".count)), count > 0 else { return nil }
            self = .commits(count)
        }
    }

    public var description: String {
        switch self {
        case .day: return "daily"
        case .week: return "weekly"
        case .month: return "monthly"
        case .commits(let count): return "every \(count) commits"
        }
    }
}
