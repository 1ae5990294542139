/// The typed face of `Kernel/coverage.lua`.
extension Kernel {
    /// What coverage the kernel collected, with the pack's own lines.
    func coverageReport() throws(RulebenchError) -> CoverageReport {
        let value = try KernelReply(.coverageReport, call(.coverageReport).first ?? [])
        var files: [String: CoverageReport.File] = [:]
        for entry in try value.field("defined").entries() {
            let lines = try entry.value.list().map { line throws(RulebenchError) in try line.int() }
            files[entry.key.description, default: CoverageReport.File()].defined = Set(lines)
        }
        for entry in try value.field("lines").entries() {
            var hits: [Int: Int] = [:]
            for line in try entry.value.entries() {
                guard case .int(let number) = line.key else {
                    throw Kernel.replyMismatch(.coverageReport, line.value.path, "a line that is not a number")
                }
                hits[Int(number)] = try line.value.int()
            }
            files[entry.key.description, default: CoverageReport.File()].hits = hits
        }
        var actions: [String: CoverageReport.ActionCounts] = [:]
        for entry in try value.field("actions").entries() {
            func count(_ key: String) throws(RulebenchError) -> Int { try entry.value.int(key) }
            actions[entry.key.description] = .init(performed: try count("performed"), undone: try count("undone"),
                                                   redone: try count("redone"), attempted: try count("attempted"),
                                                   outOfRange: try count("outofrange"), wrongType: try count("wrongtype"))
        }
        return CoverageReport(files: files, actions: actions)
    }
}
