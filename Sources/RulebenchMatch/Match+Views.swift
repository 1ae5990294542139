import Rulebench

extension Match {
    /// Each audience's view of the step just accepted (`detail`, from
    /// `.accepted`): every seat's, and the spectators' when `spectators`
    /// (it costs a view of the state per seat). Read before the next
    /// request: the views after a takeback are read from the game as it is.
    public func views(of detail: MatchReply.Detail, spectators: Bool) throws(RulebenchError) -> [Audience: StepView] {
        var views: [Audience: StepView] = [:]
        switch detail {
        case .performed(let step):
            let barrier = engine.seats.barrier(step) != nil
            var plans: [StateValue] = []
            for seat in setup.seats {
                guard let seen = step.views[seat] else {
                    throw .badInput(InputProblem("the engine gave no view of the step for seat \(seat)"))
                }
                views[.seat(seat)] = StepView(viewHash: seen.hash, plan: seen.plan, barrier: barrier)
                plans.append(seen.plan)
            }
            if spectators {
                let state = try view(as: .spectators).state
                views[.spectators] = StepView(viewHash: PublicView.hash(of: state), plan: PublicView.plan(plans), barrier: barrier)
            }
        case .undone:
            for seat in setup.seats {
                views[.seat(seat)] = StepView(viewHash: try game.view(as: seat).hash, plan: nil, barrier: false)
            }
            if spectators {
                views[.spectators] = StepView(viewHash: try view(as: .spectators).hash, plan: nil, barrier: false)
            }
        }
        return views
    }

    /// The audience's whole view of the state now, and its hash: a seat's
    /// from the engine (`Game.view(as:)`), the spectators' the public view.
    public func view(as audience: Audience) throws(RulebenchError) -> (state: StateValue, hash: String) {
        switch audience {
        case .seat(let seat):
            let view = try game.view(as: seat)
            return (view.state, view.hash)
        case .spectators:
            var states: [StateValue] = []
            for seat in setup.seats { states.append(try game.view(as: seat).state) }
            let state = PublicView.state(states)
            return (state, PublicView.hash(of: state))
        }
    }
}
