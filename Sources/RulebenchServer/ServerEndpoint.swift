import FlyingSocks
import Foundation

/// Where a server listens: an IP address as the user gave it (`127.0.0.1`,
/// `::1`, `0.0.0.0`) and a port (0: any free one). Only IP addresses: a
/// name would be resolved to who knows what.
public struct ServerEndpoint: Sendable {
    public let host: String
    public let port: UInt16
    let address: any SocketAddress

    /// Nil when `host` is not an IPv4 or IPv6 address.
    public init?(host: String, port: UInt16) {
        self.host = host
        self.port = port
        if host.contains(":") {
            guard let address = try? sockaddr_in6.inet6(ip6: host, port: port) else { return nil }
            self.address = address
        } else {
            guard let address = try? sockaddr_in.inet(ip4: host, port: port) else { return nil }
            self.address = address
        }
    }

    /// The host as a URL or a Host header writes it (`127.0.0.1`, `[::1]`).
    public var urlHost: String { host.contains(":") ? "[\(host)]" : host }

    /// `127.0.0.1:8040`, `[::1]:8040`: the address as asked, for messages.
    public var asked: String { "\(urlHost):\(port)" }

    /// Only this machine can connect (127.0.0.0/8 or ::1).
    public var isLoopback: Bool {
        if host.contains(":") {
            var bytes = in6_addr()
            return inet_pton(AF_INET6, host, &bytes) == 1 && withUnsafeBytes(of: &bytes) { raw in
                raw.prefix(15).allSatisfy { $0 == 0 } && raw[15] == 1
            }
        }
        return host.split(separator: ".").first == "127"
    }

    /// Every interface of the machine (`0.0.0.0`, `::`).
    public var isWildcard: Bool {
        if host.contains(":") {
            var bytes = in6_addr()
            return inet_pton(AF_INET6, host, &bytes) == 1 && withUnsafeBytes(of: &bytes) { $0.allSatisfy { $0 == 0 } }
        }
        return host.split(separator: ".").allSatisfy { Int($0) == 0 }
    }

    /// What a user must be told when the server is reachable from other machines; nil on loopback.
    public var exposureWarning: String? {
        guard !isLoopback else { return nil }
        let whom = isWildcard ? "every network this machine is on" : "the network of \(host)"
        return "warning: listening on \(asked), not loopback: anyone on \(whom) who has the address with its token "
            + "can play, read the game and save files as you, and the connection is not encrypted; "
            + "leave --host out (127.0.0.1) unless you mean it"
    }
}
