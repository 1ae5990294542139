import Foundation

/// A flag any worker may raise and every worker polls: "stop taking new
/// work" (a walk failed, a finding ended the session). Once set it stays set.
public final class StopFlag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    /// A flag not yet set.
    public init() {}

    /// Raises the flag.
    public func set() { lock.withLock { raised = true } }

    /// Whether the flag is raised.
    public var isSet: Bool { lock.withLock { raised } }
}
