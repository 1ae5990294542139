import Foundation
import Rulebench
import RulebenchMatch

/// Where the seats' credentials and bots live: `seats.json` in the data
/// folder (whose folder is its owner's only, as the match store's), so that
/// a player who joined before a restart plays on with the same credential,
/// and a bot's seat stays the bot's. Written whole to a new file, synced,
/// then renamed over the old one: a credential is handed out only once it
/// is on disk. The file maps a match number to its seats, each a credential
/// (a string) or a bot (`{"bot": "random"}`).
final class SeatCredentials: @unchecked Sendable {
    private let file: URL
    private let lock = NSLock()
    /// By match number: seat → credential.
    private var all: [Int64: [String: String]]
    /// By match number: seat → the bot that plays it.
    private var bots: [Int64: [String: MatchBot]] = [:]

    /// The most bytes the file may hold when read (a few thousand matches' seats).
    static let maximumBytes = 16 << 20

    init(folder: URL) throws {
        file = folder.appendingPathComponent("seats.json")
        all = [:]
        guard FileManager.default.fileExists(atPath: file.path) else { return }
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        guard let size = attributes[.size] as? Int, size <= Self.maximumBytes else {
            throw LobbyRefusal(500, "\(file.path): over \(Self.maximumBytes) bytes; not a seats file this server wrote")
        }
        guard case .object(let matches) = try JSONValue.parse(utf8: Array(try Data(contentsOf: file))) else {
            throw LobbyRefusal(500, "\(file.path): not a JSON object")
        }
        for (key, seats) in matches {
            guard let number = Int64(key), case .object(let members) = seats else {
                throw LobbyRefusal(500, "\(file.path): match \(key.prefix(20)) is not a number with an object of seats")
            }
            var seatsOfMatch: [String: String] = [:], botsOfMatch: [String: MatchBot] = [:]
            for (seat, value) in members {
                if case .string(let text) = value {
                    seatsOfMatch[seat] = text
                } else if case .string(let kind)? = value["bot"], let bot = MatchBot(rawValue: kind) {
                    botsOfMatch[seat] = bot
                } else {
                    throw LobbyRefusal(500, "\(file.path): match \(key) seat \(seat.prefix(20)): not a credential nor {\"bot\": KIND}")
                }
            }
            all[number] = seatsOfMatch
            if !botsOfMatch.isEmpty { bots[number] = botsOfMatch }
        }
    }

    func seats(of match: MatchID) -> [String: String] {
        lock.withLock { all[match.value] ?? [:] }
    }

    func bots(of match: MatchID) -> [String: MatchBot] {
        lock.withLock { bots[match.value] ?? [:] }
    }

    /// Replaces a match's credentials, durable when this returns.
    func save(_ seats: [String: String], of match: MatchID) throws {
        try save(seats, bots: nil, of: match)
    }

    /// Records the seats a match's bots play, durable when this returns.
    func saveBots(_ seatBots: [String: MatchBot], of match: MatchID) throws {
        try save(nil, bots: seatBots, of: match)
    }

    private func save(_ seats: [String: String]?, bots seatBots: [String: MatchBot]?, of match: MatchID) throws {
        try lock.withLock {
            var nextSeats = all, nextBots = bots
            if let seats { nextSeats[match.value] = seats }
            if let seatBots { nextBots[match.value] = seatBots }
            let numbers = Set(nextSeats.keys).union(nextBots.keys).sorted()
            let value = JSONValue.object(numbers.map { number in
                var members = (nextSeats[number] ?? [:]).map { ($0.key, JSONValue.string($0.value)) }
                members += (nextBots[number] ?? [:]).map { ($0.key, JSONValue.object([("bot", .string($0.value.rawValue))])) }
                return ("\(number)", .object(members.sorted { $0.0 < $1.0 }))
            })
            try Self.writeSynced(Data(value.serialized(pretty: false).utf8), to: file)
            all = nextSeats
            bots = nextBots
        }
    }

    /// Writes `data` to a new file beside `url` (owner-only), syncs it, renames it over `url`, syncs the folder.
    private static func writeSynced(_ data: Data, to url: URL) throws {
        let temporary = url.path + ".new"
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        guard descriptor >= 0 else { throw LobbyRefusal(503, "cannot write \(temporary): \(String(cString: strerror(errno)))") }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        let synced = fsync(descriptor)
        close(descriptor)
        guard written == data.count, synced == 0, rename(temporary, url.path) == 0 else {
            throw LobbyRefusal(503, "cannot write \(url.path): \(String(cString: strerror(errno)))")
        }
        let folder = open(url.deletingLastPathComponent().path, O_RDONLY)
        if folder >= 0 { fsync(folder); close(folder) }
    }
}
