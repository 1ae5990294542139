import Foundation

/// A step's `expect: { sequence: ... }`: the step starts a story sequence
/// (docs/sequences.md), and what it says when played right after the step.
///
///     expect: { sequence: storm_rises }
///     expect:
///       sequence:
///         name: storm_rises
///         says: ["meter climbs to mark 2"]          # a part of each step's text, in order
///         transcript: transcripts/storm_rises.txt   # the whole played sequence, exactly
public struct SequenceExpectation: Hashable, Sendable {
    /// The sequence the step must start.
    public var name: String
    /// For each step of the sequence, in order, a part of its text (the
    /// texts of its events joined by a space); nil: not checked.
    public var says: [String]?
    /// The golden transcript's file (`PlayedSequence.transcript`), resolved
    /// from the scenario's folder; nil: not checked.
    public var transcript: URL?

    public init(name: String, says: [String]? = nil, transcript: URL? = nil) {
        self.name = name
        self.says = says
        self.transcript = transcript
    }
}
