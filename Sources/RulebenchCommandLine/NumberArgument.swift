import ArgumentParser

/// How number options read their value. Invariant: every number option is
/// parsed `.unconditional` with one of these transforms, so `--seed -5`
/// reaches the number's own check (ArgumentParser alone takes `-5` for an
/// option and says "Missing value for '--seed'") and every refusal says
/// what is wrong with the value; ranges are then checked in `validate()`.
package enum NumberArgument {
    /// A whole number of type `T`. ArgumentParser words the refusal "The
    /// value '-5' is invalid for '--seed <seed>': " and this message.
    package static func whole<T: FixedWidthInteger & Sendable>(_ option: String) -> @Sendable (String) throws -> T {
        { text in
            if let value = T(text) { return value }
            let digits = text.drop { $0 == "-" || $0 == "+" }
            let whole = !digits.isEmpty && digits.count + 1 >= text.count && digits.allSatisfy { $0.isASCII && $0.isNumber }
            // The full range where it is the point (out of range, or unsigned); else the command's own check says more.
            let range = whole || !T.isSigned ? " from \(T.min) to \(T.max)" : ""
            throw ValidationError("it is \(whole ? "out of range" : "not a whole number"); \(option) takes a whole number\(range)")
        }
    }

    /// A number of seconds: the range is the command's to check.
    package static func seconds(_ option: String) -> @Sendable (String) throws -> Double {
        { text in
            guard let value = Double(text) else { throw ValidationError("it is not a number: \(option) takes a number of seconds") }
            return value
        }
    }
}
