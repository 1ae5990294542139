/// How a plan starts a sequence: `anim.sequence("NAME")` in an action's
/// `animate` (or the pack's `opening`) builds a cue named `sequence` whose
/// args hold the name (`anim.cue{ name = "sequence", args = { name = "NAME" } }`
/// is the same). The plan stays a plan (timed, reversed, checked); a host
/// plays the sequence when the cue is reached, on do only, never on undo.
public enum SequenceCue {
    /// The cue's name.
    public static let name = "sequence"

    /// The sequences `animation` starts, in plan order; none when it is an undo.
    public static func started(by animation: ActionAnimation?) -> [String] {
        guard let animation, animation.direction == .do else { return [] }
        var names: [String] = []
        for case .cue(let cue) in animation.composedPlan.leaves where cue.name == name {
            if let sequence = cue.args["name"]?.stringValue, !names.contains(sequence) { names.append(sequence) }
        }
        return names
    }
}
