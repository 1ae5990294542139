/// What starts a sequence besides a plan's `anim.sequence("NAME")`,
/// written as the file's `starts:`.
public enum SequenceTrigger: Hashable, Sendable {
    /// The game's opening (`starts: opening`): the intro.
    case opening
    /// A goal of the pack reached by a step (`starts: { goal: won }`).
    case goal(String)
}
