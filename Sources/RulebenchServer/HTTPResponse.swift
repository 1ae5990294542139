import Foundation

/// A response a route gives: status, headers, body. The server adds the
/// framing (Content-Length, Connection) and the headers every response
/// carries: `strictPolicy` as its Content-Security-Policy unless the route
/// names its own, `nosniff`, `no-referrer`, same-origin resource policy and
/// `no-store` unless the route says how to cache.
public struct HTTPResponse: Sendable {
    public var status: Int
    public var headers: [(name: String, value: String)]
    public var body: Data

    /// What every page and file served may do: load scripts, styles, images
    /// and sockets from its own origin only; no plugins, no `<base>`, no
    /// framing by another page, forms posted only to itself. No inline
    /// script or style: the studio's page has none.
    public static let strictPolicy = "default-src 'self'; script-src 'self'; object-src 'none'; base-uri 'none'; "
        + "frame-ancestors 'none'; form-action 'self'"

    /// For a file a user's pack supplies (an SVG may hold script): opened
    /// directly, it is a sandboxed document of an opaque origin that runs
    /// nothing and loads nothing; drawn as an image, it is unaffected.
    public static let sandboxPolicy = "sandbox; default-src 'none'; style-src 'unsafe-inline'; img-src data:"

    public init(status: Int = 200, contentType: String, body: Data, headers: [(name: String, value: String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = body
    }

    /// A one-line plain-text answer (`403 Host 'evil.example' is not this server`).
    public static func text(_ status: Int, _ line: String) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Data((line + "\n").utf8))
    }

    /// The first value of the header `name` (any case).
    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    /// The response as bytes on the wire. `keepAlive` false adds `Connection: close`.
    func encoded(keepAlive: Bool) -> Data {
        var lines = ["HTTP/1.1 \(status) \(Self.reasons[status] ?? "Status")"]
        var all = headers
        if header("Content-Security-Policy") == nil { all.append(("Content-Security-Policy", Self.strictPolicy)) }
        if header("Cache-Control") == nil { all.append(("Cache-Control", "no-store")) }
        all += [("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"),
                ("Cross-Origin-Resource-Policy", "same-origin")]
        if status != 101 {
            all.append(("Content-Length", "\(body.count)"))
            if !keepAlive { all.append(("Connection", "close")) }
        }
        lines += all.map { "\($0.name): \($0.value)" }
        var data = Data((lines.joined(separator: "\r\n") + "\r\n\r\n").utf8)
        data.append(body)
        return data
    }

    private static let reasons = [
        101: "Switching Protocols", 200: "OK", 400: "Bad Request", 403: "Forbidden", 404: "Not Found",
        405: "Method Not Allowed", 408: "Request Timeout", 411: "Length Required", 413: "Content Too Large",
        426: "Upgrade Required", 431: "Request Header Fields Too Large", 500: "Internal Server Error",
        501: "Not Implemented", 503: "Service Unavailable", 505: "HTTP Version Not Supported",
    ]
}
