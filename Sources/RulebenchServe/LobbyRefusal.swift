/// Why the lobby did not do what a request asked: an HTTP status and the words for it.
struct LobbyRefusal: Error {
    let status: Int
    let message: String

    init(_ status: Int, _ message: String) {
        self.status = status
        self.message = message
    }
}
