import LuaShim

/// Asks the Lua calls of every game in the process to stop: the one running
/// now ends within a watchdog tick (whatever its rule does, short of one
/// C call that is still running), or sooner as its next operation begins
/// (a seek's next undo or redo: those before it stay done), and any call
/// made afterwards ends at its first instruction, each with
/// `BudgetFailure.Resource.interrupt`. For a command that stops on SIGINT
/// or SIGTERM and then writes what it has.
public enum Interruption {
    /// Safe to call from a signal handler: it only stores `signal` atomically
    /// (the first one is kept).
    public static func request(signal: Int32) { rb_interrupt(signal) }

    /// Lets calls run again (an app that stopped one task and starts another).
    public static func clear() { rb_interrupt(0) }
}
