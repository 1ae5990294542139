// The kernel's view calls (Kernel/view.lua), typed. Both run rule code
// read-only under the budget, as `render` does, and leave nothing pending.

extension Kernel {
    /// The scene of the current state; nil when the pack declares no view.
    func scene() throws(RulebenchError) -> Scene? {
        let bytes = try call(.scene).first ?? []
        if bytes.isEmpty { return nil }   // the pack declares no view
        return try Scene(kernelReply: KernelReply(.scene, bytes))
    }

    /// The places `view.places` gives for tween values on the current state,
    /// one per request (nil where the view maps no such property).
    func places(_ requests: [PlaceRequest]) throws(RulebenchError) -> [StateValue?] {
        guard !requests.isEmpty else { return [] }
        let list = StateValue.list(requests.map { request in
            var fields: [StateKey: StateValue] = [.string("target"): .string(request.target),
                                                   .string("property"): .string(request.property)]
            if let value = request.value { fields[.string("value")] = value }
            return .table(fields)
        })
        let items = try KernelReply(.viewPlaces, try call(.viewPlaces, [Wire.encode(list)]).first ?? []).list()
        guard items.count == requests.count else {
            throw Kernel.replyMismatch(.viewPlaces, "", "\(items.count) places for \(requests.count) requests")
        }
        // `false` stands for "no place" in the kernel's list (a Lua list cannot hold nil).
        return items.map { $0.value.boolValue == nil ? $0.value : nil }
    }
}

// MARK: - Reading the view's replies (only here: no view type reads a reply)

extension Scene {
    /// Reads the kernel's scene reply (`view.lua`, `API.scene`): the checked
    /// declarations and nodes. A field the view leaves out takes the view's
    /// default; a field of another kind than view.lua sends is an internal
    /// error naming the call and the field (`KernelReply`).
    init(kernelReply value: KernelReply) throws(RulebenchError) {
        let grid = try value.optional("grid").map { g throws(RulebenchError) in
            SceneGrid(columns: try g.optionalInt("columns") ?? 1, rows: try g.optionalInt("rows") ?? 1,
                      cell: try g.optionalNumber("cell") ?? 32, gap: try g.optionalNumber("gap") ?? 0,
                      x: try g.optionalNumber("x") ?? 0, y: try g.optionalNumber("y") ?? 0)
        }
        let atlases = try (value.optional("atlases")?.entries() ?? []).map { entry throws(RulebenchError) in
            let a = entry.value
            return SceneAtlas(name: entry.key.description, image: try a.optionalString("image") ?? "",
                              frameWidth: try a.optionalNumber("width") ?? 0, frameHeight: try a.optionalNumber("height") ?? 0,
                              count: try a.optionalInt("count") ?? 1, columns: try a.optionalInt("columns"),
                              names: try a.optionalStrings("names"))
        }
        let extent = grid?.extent ?? ScenePoint(x: 0, y: 0)
        let width = try value.optionalNumber("width")
        self.init(width: width ?? extent.x, height: try value.optionalNumber("height") ?? extent.y,
                  background: try value.optionalString("background"),
                  backgroundImage: try value.optionalString("backgroundimage"), grid: grid, atlases: atlases,
                  sounds: try value.optionalString("sounds"), placeProperties: try value.optionalStrings("places"))
        let scene = self
        nodes = try value.optional("nodes")?.list().map { node throws(RulebenchError) in
            try SceneNode(kernelNode: node, in: scene)
        } ?? []
        if width == nil { fitNodes() }
    }
}

extension SceneNode {
    /// A node as the kernel checked it; grid places become pixels.
    init(kernelNode n: KernelReply, in scene: Scene) throws(RulebenchError) {
        let cell = scene.grid?.cell ?? 32
        let col = try n.optionalNumber("col"), row = try n.optionalNumber("row")
        let x = try n.optionalNumber("x") ?? 0, y = try n.optionalNumber("y") ?? 0
        let point = col.flatMap { c in row.flatMap { r in scene.grid?.center(col: c, row: r) } } ?? ScenePoint(x: x, y: y)
        let sprite = try n.optional("sprite").map { s throws(RulebenchError) in
            SceneSprite(atlas: try s.string("atlas"), frame: try s.optionalInt("frame") ?? 1)
        }
        self.init(id: try n.string("id"), x: point.x, y: point.y, col: col, row: row,
                  width: try n.optionalNumber("w") ?? cell, height: try n.optionalNumber("h") ?? cell,
                  shape: try n.optional("shape")?.decode(Shape.self) ?? .rect,
                  color: try n.optionalString("color"), stroke: try n.optionalString("stroke"), text: try n.optionalString("text"),
                  textColor: try n.optionalString("textcolor"), image: try n.optionalString("image"), sprite: sprite,
                  layer: try n.optionalInt("layer") ?? 0, opacity: try n.optionalNumber("opacity") ?? 1,
                  rotation: try n.optionalNumber("rotation") ?? 0, scale: try n.optionalNumber("scale") ?? 1,
                  label: try n.optionalString("label"), aliases: try n.optionalStrings("aliases"),
                  names: try (n.optional("names")?.list() ?? []).map { set throws(RulebenchError) in
                      var params: [String: String] = [:]
                      for entry in try set.entries() { params[entry.key.description] = try entry.value.string() }
                      return params
                  },
                  movable: try n.optional("movable")?.bool() ?? false)
    }
}
