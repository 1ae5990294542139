import FlyingFox

/// The open pages' sockets: where a changed position is broadcast, so every
/// tab shows the same game.
actor StudioHub {
    private var pages: [Int: AsyncStream<WSMessage>.Continuation] = [:]
    private var nextID = 0

    /// Adds a page; returns its number for `remove`.
    func add(_ page: AsyncStream<WSMessage>.Continuation) -> Int {
        nextID += 1
        pages[nextID] = page
        return nextID
    }

    func remove(_ id: Int) {
        pages.removeValue(forKey: id)?.finish()
    }

    /// Sends `text` to every open page.
    func broadcast(_ text: String) {
        for page in pages.values { page.yield(.text(text)) }
    }

    /// Closes every page's socket (the server is stopping).
    func closeAll() {
        for page in pages.values { page.finish() }
        pages = [:]
    }
}
