import RulebenchServer

/// The open pages' sockets: where a changed position is broadcast, so every
/// tab shows the same game. Sending never waits: a page that falls too far
/// behind is dropped by the server (its queue is bounded) and leaves here.
actor StudioHub {
    private var pages: [Int: WebSocketPeer] = [:]

    func add(_ page: WebSocketPeer) {
        pages[page.id] = page
    }

    func remove(_ page: WebSocketPeer) {
        pages.removeValue(forKey: page.id)
    }

    /// Sends `text` to every open page.
    func broadcast(_ text: String) {
        for (id, page) in pages where !page.send(text) { pages.removeValue(forKey: id) }
    }

    /// Closes every page's socket (the server is stopping).
    func closeAll() {
        for page in pages.values { page.close() }
        pages = [:]
    }
}
