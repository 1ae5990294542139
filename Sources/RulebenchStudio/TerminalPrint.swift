import RulebenchCommandLine

/// Every `print` of this program goes through `TerminalText`: this shadows
/// the standard library's within this module, so no output path can forget it.
func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    TerminalText.print(items, separator: separator, terminator: terminator)
}
