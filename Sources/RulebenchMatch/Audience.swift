/// Who a view is for: one seat of a match, or its spectators (the public
/// view, what every seat may see; `PublicView`).
public enum Audience: Hashable, Sendable {
    case seat(String)
    case spectators

    /// The seat, or nil for the spectators.
    public var seat: String? {
        if case .seat(let seat) = self { return seat }
        return nil
    }

    public init(_ seat: String?) {
        self = seat.map { .seat($0) } ?? .spectators
    }
}
