// swift-tools-version: 6.0
import PackageDescription

/// The kernel's Lua files (Sources/Rulebench/Kernel/*.lua), beside the Swift half of each service.
let kernelLua = ["core", "splitmix", "protocol", "state", "identity", "rulebench", "sandbox", "anim", "packload", "engine",
                 "history", "view", "seats", "explore", "devaids", "solve", "unique", "value", "choose", "fuzz", "coverage", "kernel"]

let package = Package(
    name: "Rulebench",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "Rulebench", targets: ["Rulebench"]),
        .executable(name: "rulebench", targets: ["RulebenchCLI"]),
        .executable(name: "rulebench-studio", targets: ["RulebenchStudio"]),
        .executable(name: "rulebench-serve", targets: ["RulebenchServe"]),
        .executable(name: "rulebench-bench", targets: ["RulebenchBench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        .package(url: "https://github.com/jpsim/Yams", from: "6.2.2"),
        // `swift package generate-documentation --target Rulebench` builds the DocC
        // catalog (Sources/Rulebench/Rulebench.docc); a plugin only, linked into nothing.
        .package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"),
        // FlyingSocks, this package's socket layer (non-blocking sockets, an epoll/kqueue pool, async/await,
        // no dependencies of its own), under RulebenchServer. Its HTTP server, FlyingFox, is not used.
        .package(url: "https://github.com/swhitty/FlyingFox", exact: "0.27.1"),
        // Where matches live (RulebenchMatch's SQLite store): GRDB over Debian's libsqlite3
        // (libsqlite3-dev, which `make deps` installs). No networking; RulebenchMatch's alone.
        .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    ],
    targets: [
        // Lua 5.4 as the system provides it: only the module map lives here.
        .systemLibrary(
            name: "CLua",
            path: "Sources/CLua",
            pkgConfig: "lua5.4",
            providers: [.apt(["liblua5.4-dev"])]
        ),
        // The C side of the bridge: allocator, budget hook, protected calls,
        // and the wrappers that raise Lua errors on behalf of Swift.
        .target(name: "LuaShim", dependencies: ["CLua"], path: "Sources/LuaShim"),
        .target(
            name: "Rulebench",
            dependencies: ["CLua", "LuaShim", .product(name: "Yams", package: "Yams")],
            // The kernel's Lua files are compiled into the library: no bundle at run time. Each is
            // named (a folder would make the Swift files beside them resources too), in load order
            // as KernelSource loads them (a file left out here is not embedded: KernelSource's
            // PackageResources name for it does not compile, and SwiftPM warns of it as unhandled).
            resources: kernelLua.map { .embedInCode("Kernel/\($0).lua") } + [.embedInCode("Authoring/Templates")]
        ),
        // What both programs share: the exit codes, bad arguments refused in one line,
        // the options every command takes, signals, and output that reaches the terminal safely.
        .target(
            name: "RulebenchCommandLine",
            dependencies: ["Rulebench", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        .executableTarget(
            name: "RulebenchCLI",
            dependencies: ["Rulebench", "RulebenchCommandLine",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The bounded HTTP/1.1 and WebSocket server and the local-server guard (Origin, Host, the
        // run's token) that the studio serves through, and the match server will. Knows no game.
        .target(name: "RulebenchServer", dependencies: [.product(name: "FlyingSocks", package: "FlyingFox")]),
        // The board's web parts both servers' pages share: the board module (scene.js, which draws a
        // view's scene) and pack files served sandboxed. The studio and `rulebench serve` depend on it.
        .target(name: "RulebenchBoard", dependencies: ["Rulebench", "RulebenchServer"], resources: [.embedInCode("Page")]),
        // `rulebench-studio`, which `rulebench studio` runs in its place: the web server and the
        // page live here, so no other command loads them (the server links Foundation's networking).
        .executableTarget(
            name: "RulebenchStudio",
            dependencies: ["Rulebench", "RulebenchCommandLine", "RulebenchServer", "RulebenchBoard",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            // The studio's web page (HTML, CSS, JavaScript modules), compiled into the binary.
            resources: [.embedInCode("Page")]
        ),
        // Matches played together (docs/multiplayer.md): `Match`, the authoritative state
        // machine around a `Game`, and `MatchStore`, where matches live (SQLite through GRDB).
        // No networking: the server that serves matches depends on this, never the reverse.
        .target(name: "RulebenchMatch", dependencies: ["Rulebench", .product(name: "GRDB", package: "GRDB.swift")]),
        // `rulebench-serve`, which `rulebench serve` and `rulebench join` run in their place: the
        // match server (lobby API, WebSocket protocol, seat credentials) and its command-line client.
        .executableTarget(
            name: "RulebenchServe",
            dependencies: ["Rulebench", "RulebenchCommandLine", "RulebenchServer", "RulebenchMatch", "RulebenchBoard",
                           .product(name: "ArgumentParser", package: "swift-argument-parser")],
            // The match page (the lobby, a seat's board), compiled into the binary.
            resources: [.embedInCode("Page")]
        ),
        // The crash test's player (MatchCrashTests): plays matches through `Match` on a data
        // folder, printing a line per acknowledged call, to be killed with SIGKILL and started
        // again. Built for the tests only; no product, nothing ships it.
        .executableTarget(name: "RulebenchMatchCrashDriver", dependencies: ["Rulebench", "RulebenchMatch"],
                          path: "Tests/RulebenchMatchCrashDriver"),
        // Timing lives here, never in tests: `make bench` runs it in release mode.
        .executableTarget(name: "RulebenchBench", dependencies: ["Rulebench", "RulebenchMatch", "CLua", "RulebenchServer",
                                                                 .product(name: "FlyingSocks", package: "FlyingFox")], path: "Benchmarks/RulebenchBench", exclude: []),
        .testTarget(
            name: "RulebenchTests",
            // Yams: CITemplateTests reads the CI templates' steps. RulebenchCommandLine: the studio's arguments.
            // RulebenchMatch: the match and its store (Match/); `swift build --build-tests` builds the crash driver beside them.
            // RulebenchServer: its limits and guard, driven over loopback sockets.
            dependencies: ["Rulebench", "RulebenchCommandLine", "RulebenchMatch", "RulebenchServer",
                           .product(name: "Yams", package: "Yams")],
            exclude: ["Fixtures"]
        ),
    ]
)
