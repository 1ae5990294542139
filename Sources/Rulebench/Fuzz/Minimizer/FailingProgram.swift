// What the minimizer is given: a program and how it fails. Invariant: the
// program, played as it is, fails with `finding` (the finding's key is what
// every candidate of the minimization must fail with).

/// A program that fails, and how: what the minimizer starts from.
struct FailingProgram {
    /// The program as it was played.
    let program: FuzzProgram
    /// What failed.
    let finding: FuzzFinding
}
