// The scene: what a pack's view shows for one state, as plain values.
//
// The kernel (Kernel/view.lua) runs the view's `scene(game, add)` and checks
// every node where it is added; this file reads its reply and resolves grid
// places to pixels, so a host (the studio page, a Swift game app) draws
// nodes without knowing the grid. Invariant: a scene is a pure function of
// the state and the pack: nodes keep the order the view added them, atlases
// and place properties are sorted by name, nothing depends on addresses.

/// What a pack's view shows for one state: a board of nodes.
public struct Scene: Hashable, Sendable, Codable {
    /// The board's width in pixels (the view's `size`, else the grid's extent).
    public var width: Double
    /// The board's height in pixels.
    public var height: Double
    /// A CSS colour behind the board, when the view gives one (`#rgb`,
    /// `#rrggbb`, `#rrggbbaa`, a name, `rgb()`: checked where the view is loaded).
    public var background: String?
    /// An image of the pack behind the board (a path relative to the pack folder), when the view gives one.
    public var backgroundImage: String?
    /// The grid nodes may be placed on (`col`, `row`), when the view declares one.
    public var grid: SceneGrid?
    /// The sprite atlases nodes may take frames from, by name.
    public var atlases: [SceneAtlas]
    /// The folder of the pack holding the sound files (`NAME.wav`, `.ogg` or `.mp3`), when declared.
    public var sounds: String?
    /// The tween properties that move a node (the keys of the view's `places`), sorted.
    public var placeProperties: [String]
    /// The nodes, in the order the view added them (later ones drawn above within a layer).
    public var nodes: [SceneNode]

    /// A scene from its parts.
    public init(width: Double, height: Double, background: String? = nil, backgroundImage: String? = nil, grid: SceneGrid? = nil,
                atlases: [SceneAtlas] = [], sounds: String? = nil, placeProperties: [String] = [], nodes: [SceneNode] = []) {
        self.width = width
        self.height = height
        self.background = background
        self.backgroundImage = backgroundImage
        self.grid = grid
        self.atlases = atlases
        self.sounds = sounds
        self.placeProperties = placeProperties
        self.nodes = nodes
    }

    /// The node with this id, if the scene has one.
    public func node(_ id: String) -> SceneNode? {
        nodes.first { $0.id == id }
    }

    /// The atlas with this name, if declared.
    public func atlas(_ name: String) -> SceneAtlas? {
        atlases.first { $0.name == name }
    }

    /// A place the view gave (`{ col, row }` or `{ x, y }`) in pixels; nil
    /// when it is neither, or a grid place with no grid.
    public func point(_ place: StateValue?) -> ScenePoint? {
        if let col = place?["col"]?.numberValue, let row = place?["row"]?.numberValue {
            return grid?.center(col: col, row: row)
        }
        if let x = place?["x"]?.numberValue, let y = place?["y"]?.numberValue { return ScenePoint(x: x, y: y) }
        return nil
    }
}

/// A point on the board, in pixels from its top-left corner.
public struct ScenePoint: Hashable, Sendable, Codable {
    /// Pixels to the right.
    public var x: Double
    /// Pixels down.
    public var y: Double

    /// A point.
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

/// A grid of square cells: `view.grid = { columns, rows, cell, gap, x, y }`.
public struct SceneGrid: Hashable, Sendable, Codable {
    /// Cells across.
    public var columns: Int
    /// Cells down.
    public var rows: Int
    /// A cell's side, in pixels.
    public var cell: Double
    /// Pixels between two cells.
    public var gap: Double
    /// The left edge of column 1.
    public var x: Double
    /// The top edge of row 1.
    public var y: Double

    /// A grid; the defaults are the view's.
    public init(columns: Int, rows: Int, cell: Double, gap: Double = 0, x: Double = 0, y: Double = 0) {
        self.columns = columns
        self.rows = rows
        self.cell = cell
        self.gap = gap
        self.x = x
        self.y = y
    }

    /// The centre of a cell (1-based; fractions lie between cells).
    public func center(col: Double, row: Double) -> ScenePoint {
        ScenePoint(x: x + (col - 1) * (cell + gap) + cell / 2, y: y + (row - 1) * (cell + gap) + cell / 2)
    }

    /// The pixels the grid covers: its far edges.
    var extent: ScenePoint {
        ScenePoint(x: x + Double(columns) * cell + Double(max(0, columns - 1)) * gap,
                   y: y + Double(rows) * cell + Double(max(0, rows - 1)) * gap)
    }
}

/// A sprite atlas: one image holding equally sized frames, row by row.
public struct SceneAtlas: Hashable, Sendable, Codable {
    /// Its name in `view.atlases`.
    public var name: String
    /// The image file, relative to the pack folder.
    public var image: String
    /// A frame's width in pixels.
    public var frameWidth: Double
    /// A frame's height in pixels.
    public var frameHeight: Double
    /// How many frames.
    public var count: Int
    /// Frames per row of the image.
    public var columns: Int
    /// Names of the first frames (frame `i + 1` is `names[i]`), so plans may name frames.
    public var names: [String]

    /// An atlas.
    public init(name: String, image: String, frameWidth: Double, frameHeight: Double, count: Int, columns: Int? = nil,
                names: [String] = []) {
        self.name = name
        self.image = image
        self.frameWidth = frameWidth
        self.frameHeight = frameHeight
        self.count = count
        self.columns = max(1, columns ?? count)
        self.names = names
    }

    /// The 1-based frame a value names: an index in range, or one of `names`.
    public func frame(_ value: StateValue?) -> Int? {
        if let n = value?.intValue, n >= 1, n <= Int64(count) { return Int(n) }
        if let name = value?.stringValue, let index = names.firstIndex(of: name) { return index + 1 }
        return nil
    }

    /// The top-left pixel of a frame in the image.
    public func origin(of frame: Int) -> ScenePoint {
        let index = max(0, frame - 1)
        return ScenePoint(x: Double(index % columns) * frameWidth, y: Double(index / columns) * frameHeight)
    }
}

/// A frame of an atlas shown by a node.
public struct SceneSprite: Hashable, Sendable, Codable {
    /// The atlas's name.
    public var atlas: String
    /// The 1-based frame.
    public var frame: Int

    /// A sprite.
    public init(atlas: String, frame: Int) {
        self.atlas = atlas
        self.frame = frame
    }
}

/// One thing on the board: its id (the target animation plans name), its
/// place in pixels (its centre) and how it looks.
public struct SceneNode: Hashable, Sendable, Codable {
    /// How a node is outlined.
    public enum Shape: String, Hashable, Sendable, Codable, CaseIterable {
        /// A rectangle.
        case rect
        /// A rectangle with rounded corners.
        case round
        /// An ellipse inside the node's box (a circle when square).
        case circle
        /// A rhombus inside the node's box.
        case diamond
        /// No outline: only text, image or sprite.
        case none
    }

    /// The id, e.g. `token:p1`: what tweens and frame runs target.
    public var id: String
    /// Its centre, pixels across.
    public var x: Double
    /// Its centre, pixels down.
    public var y: Double
    /// The grid column it was placed at, when placed on the grid.
    public var col: Double?
    /// The grid row it was placed at, when placed on the grid.
    public var row: Double?
    /// Width in pixels (default: a grid cell, else 32).
    public var width: Double
    /// Height in pixels.
    public var height: Double
    /// Its outline.
    public var shape: Shape
    /// Fill colour (CSS).
    public var color: String?
    /// Outline colour (CSS).
    public var stroke: String?
    /// Text written on it.
    public var text: String?
    /// The text's colour (CSS).
    public var textColor: String?
    /// An image file, relative to the pack folder.
    public var image: String?
    /// A frame of an atlas.
    public var sprite: SceneSprite?
    /// Drawing layer: higher layers above; within one, later nodes above.
    public var layer: Int
    /// 0 (invisible) to 1.
    public var opacity: Double
    /// Degrees, clockwise.
    public var rotation: Double
    /// Size factor.
    public var scale: Double
    /// Words describing it for people (the page's accessible name; default the id).
    public var label: String?
    /// Other values a call's params name it by (a tile's cell, a card's place), as text.
    public var aliases: [String]
    /// The calls that name it, by their params (`names = { column = 3 }`):
    /// each a param set (param name -> the value's text), of which a call
    /// names the node when it holds every param of one. Empty: the node is
    /// named by its id, the part of it after the first `:` and its aliases.
    public var names: [[String: String]]
    /// Whether a host lets a person drag it onto a target (a node its legal
    /// calls also name): the view's `movable = true` on a piece that moves.
    /// False: it is never dragged (a click still selects it).
    public var movable: Bool

    /// A node; the defaults are the view's.
    public init(id: String, x: Double, y: Double, col: Double? = nil, row: Double? = nil, width: Double = 32,
                height: Double = 32, shape: Shape = .rect, color: String? = nil, stroke: String? = nil,
                text: String? = nil, textColor: String? = nil, image: String? = nil, sprite: SceneSprite? = nil,
                layer: Int = 0, opacity: Double = 1, rotation: Double = 0, scale: Double = 1, label: String? = nil,
                aliases: [String] = [], names: [[String: String]] = [], movable: Bool = false) {
        self.id = id
        self.x = x
        self.y = y
        self.col = col
        self.row = row
        self.width = width
        self.height = height
        self.shape = shape
        self.color = color
        self.stroke = stroke
        self.text = text
        self.textColor = textColor
        self.image = image
        self.sprite = sprite
        self.layer = layer
        self.opacity = opacity
        self.rotation = rotation
        self.scale = scale
        self.label = label
        self.aliases = aliases
        self.names = names
        self.movable = movable
    }

    /// Where it is.
    public var point: ScenePoint { ScenePoint(x: x, y: y) }

    /// The values any param of a call names this node by: its id, its
    /// aliases and, unless it declares `names`, the part of the id after
    /// its first `:` (`p1` of `pawn:p1`, `3:1` of `disc:3:1`: a whole part,
    /// so `column = 1` never names the disc of column 3, row 1).
    public var callNames: Set<String> {
        var names: Set<String> = [id]
        if self.names.isEmpty, let colon = id.firstIndex(of: ":") { names.insert(String(id[id.index(after: colon)...])) }
        return names.union(aliases)
    }

    /// Whether `call` names this node: it holds every param of one of the
    /// node's `names` (`drop column=3` names a node declaring `names = {
    /// column = 3 }`), or one of its params (or a value inside a table
    /// param) is one of `callNames`. A host narrows the legal calls to a
    /// clicked node's with it.
    public func isNamed(by call: ActionCall) -> Bool {
        let known = callNames
        func named(_ value: StateValue) -> Bool {
            switch value {
            case .table: return value.sortedEntries.contains { named($0.value) }
            default: return SceneNode.text(of: value).map(known.contains) ?? false
            }
        }
        let byParams = names.contains { set in
            set.allSatisfy { param, text in call.params[param].flatMap(SceneNode.text(of:)) == text }
        }
        return byParams || call.params.values.contains(where: named)
    }

    /// The text a param value names a node by: a string, or a whole number's digits.
    private static func text(of value: StateValue) -> String? {
        switch value {
        case .string(let s): return s
        case .int(let i): return String(i)
        case .bool, .double, .table: return nil
        }
    }

    /// The calls among `legal` that named this node by the rule before
    /// `names` (the part of the id after its last `:`) and name it no more:
    /// what `rulebench check` tells the author of a pack written then.
    public func namedOnlyByLastPart(among legal: [ActionCall]) -> [ActionCall] {
        guard names.isEmpty, let colon = id.lastIndex(of: ":"), id.firstIndex(of: ":") != colon else { return [] }
        let last = String(id[id.index(after: colon)...])
        var old = self
        old.aliases.append(last)
        return legal.filter { old.isNamed(by: $0) && !isNamed(by: $0) }
    }
}

extension Scene {
    /// Without a size, the board reaches as far as its grid and its nodes.
    mutating func fitNodes() {
        width = max(width, nodes.map { $0.x + $0.width / 2 }.max() ?? 0)
        height = max(height, nodes.map { $0.y + $0.height / 2 }.max() ?? 0)
    }
}
