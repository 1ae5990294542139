import Rulebench

extension Match {
    /// Each audience's view of the step just accepted (`detail`, from
    /// `.accepted`): every seat's, and the spectators' when `spectators`.
    /// None builds a view of the state: a seat's is the engine's view of
    /// the step (read from what the step wrote), the spectators' plan and
    /// changes are the seats' in common (`PublicView`) and their hash the
    /// engine's hash of the public view. Read before the next request: the
    /// hashes after a takeback are read from the game as it is.
    public func views(of detail: MatchReply.Detail, spectators: Bool) throws(RulebenchError) -> [Audience: StepView] {
        var views: [Audience: StepView] = [:]
        switch detail {
        case .performed(let step):
            let barrier = engine.seats.barrier(step) != nil
            var plans: [StateValue] = [], changes: [[SeatChange]] = []
            for seat in setup.seats {
                guard let seen = step.views[seat] else {
                    throw .badInput(InputProblem("the engine gave no view of the step for seat \(seat)"))
                }
                views[.seat(seat)] = StepView(viewHash: seen.hash, plan: seen.plan, changes: seen.changes, barrier: barrier)
                plans.append(seen.plan)
                changes.append(seen.changes)
            }
            if spectators {
                views[.spectators] = StepView(viewHash: try viewHash(as: .spectators), plan: PublicView.plan(plans),
                                              changes: PublicView.changes(changes), barrier: barrier)
            }
        case .undone:
            for seat in setup.seats {
                views[.seat(seat)] = StepView(viewHash: try viewHash(as: .seat(seat)), plan: nil, changes: nil, barrier: false)
            }
            if spectators {
                views[.spectators] = StepView(viewHash: try viewHash(as: .spectators), plan: nil, changes: nil, barrier: false)
            }
        }
        return views
    }

    /// The audience's whole view of the state now, and its hash: a seat's
    /// (`Game.view(as:)`), or the spectators' public view (`Game.publicView()`).
    public func view(as audience: Audience) throws(RulebenchError) -> (state: StateValue, hash: String) {
        let view: SeatView
        if let seat = audience.seat { view = try game.view(as: seat) } else { view = try game.publicView() }
        return (view.state, view.hash)
    }

    /// The hash of the audience's view now, the hash `view(as:)` would
    /// give, without building the view.
    public func viewHash(as audience: Audience) throws(RulebenchError) -> String {
        try game.viewHash(as: audience.seat)
    }
}
