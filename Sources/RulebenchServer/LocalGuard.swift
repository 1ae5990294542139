import Foundation

/// The one check every HTTP request and WebSocket handshake passes before a
/// route sees it, so that only the server's own page, and whoever was
/// given its address, can use a server on the user's machine:
///
/// - `Host` names this server: a loopback name (`localhost`, `127.0.0.1`,
///   `[::1]`) or the bound address, with the port listened on; bound to
///   every interface (`0.0.0.0`, `::`), any IP literal. A DNS name that
///   now points here (DNS rebinding) is refused.
/// - `Origin`, when the browser sends one, is the server's own
///   (`http://HOST:PORT` with such a host); `Origin: null` (a file:// page,
///   a sandboxed frame) is refused. Browsers send it on every WebSocket
///   and every cross-origin fetch, so another page's script is refused
///   even when it knows the token.
/// - the run's secret token: the `token` query parameter (as the printed
///   address carries it, Jupyter's way), or the cookie a request with the
///   token was answered with (`rulebench-token-PORT`, HttpOnly,
///   SameSite=Strict), so the page's own files, images and socket need no
///   token in their URLs. A cookie is not taken from a request the browser
///   marks as made by another site (`Sec-Fetch-Site: cross-site` or
///   `same-site`, another port of localhost being same-site).
///
/// Refusals are 403 with one line saying which check failed.
public struct LocalGuard: Sendable {
    public let token: String
    public let port: UInt16
    private let endpoint: ServerEndpoint

    public enum Verdict: Equatable, Sendable {
        /// Allowed; `byToken` when the token came in the query (the answer sets the cookie).
        case allowed(byToken: Bool)
        case refused(String)
    }

    public init(endpoint: ServerEndpoint, port: UInt16, token: String) {
        self.endpoint = endpoint
        self.port = port
        self.token = token
    }

    /// A new secret: 32 bytes from the system's CSPRNG (getrandom/arc4random), as 64 hex digits.
    public static func newToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<32).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max, using: &generator)) }.joined()
    }

    /// The address to open: `http://127.0.0.1:PORT/?token=…`.
    public var address: String { "http://\(endpoint.isWildcard ? "127.0.0.1" : endpoint.urlHost):\(port)/?token=\(token)" }

    /// The cookie that carries the token, named by port so servers on other ports keep theirs.
    public var cookieName: String { "rulebench-token-\(port)" }

    /// The `Set-Cookie` value an answer to a request with the token carries.
    var cookie: String { "\(cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict" }

    public func check(_ request: HTTPRequest) -> Verdict {
        let hosts = request.headerValues("host")
        guard hosts.count == 1, let host = hosts.first else { return .refused("a request must name its Host once") }
        guard names(host) else { return .refused("Host '\(host)' is not this server (\(endpoint.urlHost):\(port) or localhost:\(port))") }
        let origins = request.headerValues("origin")
        if let origin = origins.first {
            guard origins.count == 1, origin.hasPrefix("http://"), names(String(origin.dropFirst("http://".count))) else {
                return .refused("Origin '\(origin)' is not this server's page")
            }
        }
        return credential(request)
    }

    private func credential(_ request: HTTPRequest) -> Verdict {
        let given = request.queryValues("token")
        if !given.isEmpty {
            guard given.count == 1 else { return .refused("the token is given more than once") }
            return Self.same(given[0], token) ? .allowed(byToken: true) : .refused("wrong token (open the address the server printed)")
        }
        let cookies = request.headerValues("cookie").flatMap { $0.split(separator: ";") }
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { $0.hasPrefix(cookieName + "=") }.map { String($0.dropFirst(cookieName.count + 1)) }
        guard let cookie = cookies.first else { return .refused("no token (open the address the server printed, which ends in ?token=…)") }
        guard cookies.count == 1, Self.same(cookie, token) else { return .refused("wrong token cookie (open the address the server printed)") }
        if let site = request.header("sec-fetch-site"), site == "cross-site" || site == "same-site" {
            return .refused("a request another site's page made (Sec-Fetch-Site: \(site))")
        }
        return .allowed(byToken: false)
    }

    /// Whether `hostPort` (`127.0.0.1:8040`, `[::1]:8040`, `localhost:8040`) names this server.
    private func names(_ hostPort: String) -> Bool {
        let lower = hostPort.lowercased()
        let name: Substring, portText: Substring
        if lower.hasPrefix("[") {
            guard let close = lower.firstIndex(of: "]") else { return false }
            name = lower[...close]
            portText = lower[lower.index(after: close)...]
        } else {
            let colon = lower.firstIndex(of: ":") ?? lower.endIndex
            name = lower[..<colon]
            portText = lower[colon...]
        }
        let givenPort = portText.isEmpty ? "80" : portText.hasPrefix(":") ? String(portText.dropFirst()) : ""
        guard givenPort == "\(port)" else { return false }
        if ["localhost", "127.0.0.1", "[::1]", endpoint.urlHost.lowercased()].contains(String(name)) { return true }
        return endpoint.isWildcard && Self.isIPLiteral(name)
    }

    /// An IPv4 dotted quad or a bracketed IPv6 address: a name DNS cannot rebind.
    private static func isIPLiteral(_ name: Substring) -> Bool {
        if name.hasPrefix("["), name.hasSuffix("]") {
            var bytes = in6_addr()
            return inet_pton(AF_INET6, String(name.dropFirst().dropLast()), &bytes) == 1
        }
        var bytes = in_addr()
        return inet_pton(AF_INET, String(name), &bytes) == 1
    }

    /// Compares in time that depends on the lengths only.
    private static func same(_ a: String, _ b: String) -> Bool {
        let x = Array(a.utf8), y = Array(b.utf8)
        guard x.count == y.count else { return false }
        return zip(x, y).reduce(0) { $0 | ($1.0 ^ $1.1) } == 0
    }
}
