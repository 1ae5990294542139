/// One thing `PackChecker` found wrong with a rule pack.
public struct PackProblem: Hashable, Sendable, CustomStringConvertible {
    /// How bad a problem is: errors fail `rulebench check`, warnings do not.
    public enum Severity: String, Hashable, Sendable, Comparable {
        case error
        case warning

        /// Errors sort before warnings.
        public static func < (lhs: Severity, rhs: Severity) -> Bool { lhs == .error && rhs == .warning }
    }

    /// Whether this fails the check.
    public var severity: Severity
    /// The file to look at, as messages show it (relative to the working directory when inside it).
    public var file: String
    /// The 1-based line, when known.
    public var line: Int?
    /// What is wrong and, where it helps, what to do about it.
    public var message: String

    /// A problem from its parts.
    public init(_ severity: Severity, file: String, line: Int? = nil, _ message: String) {
        self.severity = severity
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: error: message` (the line is left out when unknown), as compilers print it.
    public var description: String {
        file + (line.map { ":\($0)" } ?? "") + ": \(severity.rawValue): " + message
    }
}
