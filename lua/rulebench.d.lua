---@meta rulebench
-- Type annotations for Rulebench rule packs, for lua-language-server (LuaCATS).
--
-- This file is never run: it describes what the engine hands to rules, so an
-- editor can complete names and warn about wrong types. Point
-- lua-language-server at it with `workspace.library` (the repository's
-- .luarc.json does). `---@meta rulebench` also makes `require "rulebench"`
-- resolve to the module described at the end.
--
-- Annotate an action file by giving its table a type:
--
--     ---@type rulebench.Action
--     local action = {
--       params = { token = "string" },
--       apply = function(game, a) ... end,   -- game and a are typed here
--     }
--     return action
--
-- and a pack manifest with `---@type rulebench.Pack`. Describe your own
-- state by extending rulebench.Game:
--
--     ---@class race.Game: rulebench.Game
--     ---@field tokens table<string, { square: integer }>
--     ---@field moves integer

---------------------------------------------------------------- state

---A value the game state can hold: a boolean, an integer, a float (finite), a string, or a state table.
---An empty slot is nil, written `rulebench.Value?` where a slot may be empty.
---@alias rulebench.Value boolean|integer|number|string|rulebench.StateTable|table

---A table of the game state: string or integer keys, `rulebench.Value` values.
---A state table lives at one place: assigning it elsewhere moves it (its old
---slot becomes nil). Use `require("rulebench").copy(t)` for a second copy.
---Its fields read as `any`, so rules index them freely; describe your own
---state by extending `rulebench.Game` (below) to have them checked.
---@class rulebench.StateTable
---@field [string|integer] any

---The root of the game state. Rules read it anywhere, and write it only
---inside `setup`, `apply` and `undo`; a write anywhere else is an error
---naming the file and line. Undo puts back exactly what an action changed.
---@class rulebench.Game: rulebench.StateTable
---@field _rng integer The engine's random generator state; change it only through `require "rulebench"` or `math.random`.

---Setup options: the pack's `options` with the values given for this game over them.
---Each has the type the pack declared for it (the engine checks), so they read as `any`.
---@alias rulebench.Options table<string, any>

---A param table: what a player chooses and history saves (plain values and tables).
---@alias rulebench.Params table<string, rulebench.Value>

---The action object: its params as given, plus whatever `apply` records on it
---for `undo` and `animate` to use (the tile a token came from, the very tables
---it removed). History saves only the params; a replay applies again.
---@class rulebench.ActionObject
---@field [string] any

---Hands `legal` one legal param table at a time. Params are named by strings
---and hold only what a saved history (JSON) carries exactly: finite numbers,
---UTF-8 strings, booleans, tables keyed by strings or integers; anything else
---(NaN, inf, a function, a boolean key) is an error at the emit's line.
---`kind` (optional) names the kind of move for the fuzzer's guided search
---(`emit(p, "capture")`); without it, the kind is the line that called `emit`.
---@alias rulebench.Emit fun(params: rulebench.Params, kind?: string)

---The third argument of `apply`: queues subactions.
---@class rulebench.Act
local Act = {}

---Queues a subaction. It runs after `apply` returns, in queue order, with its
---own `check`, `apply` and subactions; undo runs the subactions in reverse,
---then the action's own `undo`. Call it only while `apply` runs.
---@param name string An action of this pack (its file name in actions/).
---@param params? rulebench.Params Its params (default: none).
---@param options? { delay?: number } `delay`: its animation starts this many seconds later than `subanimations` places it.
function Act:sub(name, params, options) end

---------------------------------------------------------------- action files

---A param type in `params`: add `?` for an optional param.
---@alias rulebench.ParamType
---| "string"
---| "integer"
---| "number"
---| "boolean"
---| "table"
---| "any"
---| "string?"
---| "integer?"
---| "number?"
---| "boolean?"
---| "table?"
---| "any?"

---Which way an animation or sound is asked for.
---@alias rulebench.Direction "do"|"undo"

---What an action file (actions/NAME.lua) returns. Only `apply` is required.
---@class rulebench.Action
---@field params? table<string, rulebench.ParamType> The params and their types; calls with other or ill-typed params are refused.
---@field legal? fun(game: rulebench.Game, emit: rulebench.Emit) Emits every legal param table (for play, explore, check and the fuzzer). Must not write the state.
---@field check? fun(game: rulebench.Game, a: rulebench.ActionObject): string|nil Returns nil to allow the action, or the reason for refusing it. Must not write the state.
---@field apply fun(game: rulebench.Game, a: rulebench.ActionObject, act: rulebench.Act) Does the action: writes the state, records on `a` what undo needs, queues subactions.
---@field undo? fun(game: rulebench.Game, a: rulebench.ActionObject) Reverses `apply` exactly (subactions are undone before it). Absent: the engine undoes from its journal.
---@field animate? fun(anim: rulebench.Anim, game: rulebench.Game, a: rulebench.ActionObject, direction: rulebench.Direction): rulebench.Plan|nil Builds the animation plan, after the action (do) or its undo. nil for "undo" plays the do plan backwards, mirrored in time (delays and staggers included); returning the do plan itself would play it forwards again.
---@field sound? string|fun(game: rulebench.Game, a: rulebench.ActionObject, direction: rulebench.Direction): string|nil A sound played at the start of the action's plan.
---@field subanimations? "parallel"|"sequence"|"stagger" How the subactions' plans combine with the action's own (default "parallel"; "sequence" plays its own first, then each in turn; "stagger" plays its own first, then starts one subaction every `stagger` seconds).
---@field stagger? number With subanimations = "stagger": seconds between two subactions' starts (default 0.1).
---@field checkpoint? boolean When true, a player-facing "undo turn" stops before undoing this action.
---@field internal? boolean When true, the action runs only as a subaction (`act:sub`): never listed as legal, rejected when performed on its own.
---@field seat? string|fun(game: rulebench.Game, a: rulebench.ActionObject): string|nil In a seated pack, the seat that performs a call: the name of the param holding it, or a function of the state and the params (nil: any seat that may act). Default: the param `seat` or `player` when it names a seat.
---@field description? string One line about the action, for tools.

---------------------------------------------------------------- the pack manifest

---What pack.lua returns.
---An option declared with its type, for an option of several types (`any`) or with no default.
---@class rulebench.OptionSpec
---@field type "string"|"integer"|"number"|"boolean"|"table"|"any"
---@field default? any The value setup gets when the option is not given (nil when left out).
---@field description? string

---A goal in its table form (a plain function is the same as `{ holds = fn }`).
---@class rulebench.Goal
---@field holds fun(game: rulebench.Game): boolean The goal itself: true or false, read-only.
---@field estimate? fun(game: rulebench.Game): number The fewest moves still needed, at least (0 or more; a fraction or math.maxinteger is fine, NaN and math.huge are errors), read-only. `rulebench solve` then searches best-first (A*); its line is a shortest one as long as this never exceeds the true number. `rulebench check` warns when it finds a state where it does.
---@field dead_end? fun(game: rulebench.Game): boolean True for a state from which the goal can never be reached, read-only: `rulebench solve` never expands it.

---@class rulebench.Pack
---@field name string The pack's name.
---@field version? string Its version (saved histories name it).
---@field extends? string A base pack in the same rules/ folder: its actions, invariants and setup are inherited and may be overridden.
---@field options? table<string, any|rulebench.OptionSpec> The options the pack takes: `name = default` (its type is the default's), or `name = { type = "...", default = ... }`. Any other option is bad input.
---@field setup? fun(game: rulebench.Game, options: rulebench.Options) Writes the initial state; runs as an action.
---@field opening? fun(anim: rulebench.Anim, game: rulebench.Game, options: rulebench.Options): rulebench.Plan|nil The opening animation (the deal), built read-only on the state setup made; `timeline --step 0` and `play` show it.
---@field invariants? table<string, fun(game: rulebench.Game): boolean, string?> Checked after every action: return true, or false and a message.
---@field goals? table<string, (fun(game: rulebench.Game): boolean)|rulebench.Goal> Positions worth reaching, read-only like invariants: return true or false. `rulebench solve PACK --goal NAME` finds the shortest line to one; scenarios expect one with `expect: { goal: NAME }`. A table form adds an estimate and dead ends for the solver.
---@field render? fun(game: rulebench.Game): string A text picture of the board (for `rulebench play`).
---@field view? rulebench.View|fun(game: rulebench.Game, add: rulebench.AddNode) The board as a scene of nodes (for `rulebench studio` and host apps): a function that adds the nodes, or a table of it and its declarations. Read-only, like `render`.
---@field seats? string[]|fun(options: rulebench.Options): string[] The seats of a game played by several people (`{ "p1", "p2" }`), or a function of the options that lists them. A pack without seats is played by one author, as before.
---@field turn? fun(game: rulebench.Game): string|string[]|nil, string? Which seats may act now: a seat, a list of seats (free actions on another's turn), or nil (none: the game acts by itself); optionally the reason the others may not. Default: every seat. Read-only.
---@field result? fun(game: rulebench.Game): string|table<string, integer>|nil How a finished game ended, for `solve --value` and the bots: nil while play goes on; the seat that won, "draw", or whole-number scores by seat (two seats: summing to 0). Read-only.
---@field appraise? fun(game: rulebench.Game, seat: string|nil): number How good the position looks for `seat`, from -1 (lost) to 1 (won): orders `solve --value`'s moves and scores the positions at its depth limit (never proven). Read-only.
---@field secrets? fun(game: rulebench.Game, secret: rulebench.Secret) Marks what each seat may not see, read-only: `secret(t)` hides every slot of state table t (a face-down deck: its count stays visible), `secret(t, key)` one slot, and a third argument names the seat (or seats) that still sees it (a hand: `secret(hand, nil, "p1")`). A slot's own mark overrides its table's. The random generator is always secret.
---@field generate? fun(rng: rulebench.Generator, params: table<string, any>): rulebench.Options Makes a new level: returns its options (the same table `--option` fills), drawing only from `rng`, so the same seed and params give the same level. No game exists yet: it reads and writes no state. `rulebench generate PACK --param k=v` calls it (docs/levels.md).
---@field description? string One line about the pack.

---The generator `generate(rng, params)` receives: the game's SplitMix64,
---seeded for one level alone. Call its methods with a colon.
---@class rulebench.Generator
---@field random fun(self: rulebench.Generator, m?: integer, n?: integer): number With no bounds a float in [0, 1); with `m` an integer in 1..m; with `m` and `n` an integer in m..n.
---@field shuffle fun(self: rulebench.Generator, list: table): table Shuffles a list in place (Fisher-Yates) and returns it.

---Marks slots of the state secret (in `secrets`): `t` a state table, `key`
---one of its slots (nil: every slot), `owners` the seat or seats that still see it.
---@alias rulebench.Secret fun(t: table, key?: string|integer, owners?: string|string[])

---------------------------------------------------------------- the view

---Adds one node to the scene. A bad node is an error at the line of this call.
---@alias rulebench.AddNode fun(node: rulebench.Node)

---How the pack's state looks on a board: `view` in pack.lua.
---@class rulebench.View
---@field scene fun(game: rulebench.Game, add: rulebench.AddNode) Adds the nodes of the current state, in drawing order (read-only; returns nothing).
---@field grid? rulebench.Grid|fun(game: rulebench.Game, options: rulebench.Options): rulebench.Grid Square cells nodes may be placed on with `col` and `row`; a function of the state and the setup options sizes the board by them (`columns = options.cols`).
---@field size? number[]|fun(game: rulebench.Game, options: rulebench.Options): number[] { width, height } of the board in pixels (default: as far as the grid and the nodes reach), or a function giving it.
---@field background? string A CSS colour behind the board.
---@field atlases? table<string, rulebench.Atlas> Sprite atlases, by name, for nodes' `sprite`.
---@field sounds? string A folder of the pack holding the sounds (`NAME.wav`, `.ogg` or `.mp3` for `sound = "NAME"`).
---@field places? table<string, (fun(game: rulebench.Game, value: rulebench.Value, target: string): rulebench.Place|nil)|true> For a tween property that moves a node (e.g. `cell`, `square`): where a value of it is on the board, so tweens played in sequence pass through the places in between. `true`: it moves the node, with no place for values in between (the route is cut evenly). nil from the function: no place for that value.

---@class rulebench.Grid
---@field columns integer Cells across (at most 1000000; the grid must end within 1000000 pixels).
---@field rows integer Cells down (likewise).
---@field cell number A cell's side in pixels.
---@field gap? number Pixels between cells (default 0).
---@field x? number The left edge of column 1 (default 0).
---@field y? number The top edge of row 1 (default 0).

---A place on the board: a grid cell (fractions lie between cells) or pixels.
---@class rulebench.Place
---@field col? number
---@field row? number
---@field x? number
---@field y? number

---One image of equally sized frames, row by row; frame 1 is the top-left one.
---@class rulebench.Atlas
---@field image string The image file, relative to the pack folder (SVG or PNG).
---@field width number A frame's width in pixels.
---@field height number A frame's height in pixels.
---@field count integer How many frames (1 to 1000000).
---@field columns? integer Frames per row (default: all in one row).
---@field names? string[] Names of the first frames, so nodes and `anim.frames` may name them.

---@alias rulebench.Shape "rect"|"round"|"circle"|"diamond"|"none"

---A node of the scene. Give a place: `col` and `row` (with `view.grid`) or `x` and `y` (pixels), its centre.
---@class rulebench.Node
---@field id string Unique in the scene; what animation plans target, e.g. "token:p1".
---@field col? number Grid column (1-based).
---@field row? number Grid row (1-based).
---@field x? number Pixels across (its centre).
---@field y? number Pixels down (its centre).
---@field w? number Width in pixels (default: a grid cell, else 32).
---@field h? number Height in pixels.
---@field shape? rulebench.Shape Default "rect".
---@field color? string Fill colour (CSS: "#c8a24b", "#c8a24b80", "white").
---@field stroke? string Outline colour.
---@field text? string Text written on it.
---@field textcolor? string The text's colour.
---@field image? string An image file, relative to the pack folder.
---@field sprite? { atlas: string, frame?: integer|string } A frame of an atlas (by number or name; default 1). `anim.frames` on the node steps through the atlas.
---@field layer? integer Drawing layer (default 0), from -1000000 to 1000000: higher above; within one, later nodes above.
---@field opacity? number 0..1 (default 1); a tween of `opacity` animates it.
---@field rotation? number Degrees clockwise (default 0); a tween of `rotation` animates it.
---@field scale? number Size factor (default 1); a tween of `scale` animates it.
---@field label? string Words for people (the studio's accessible name; default the id).
---@field aliases? (string|integer)[] Other values a call's params name it by (a tile's cell, a card's place); a call also names a node by its id and, when it gives no `names`, by the whole part after its first ":" (`player = "p1"` names "pawn:p1"; "disc:3:1" is named by "3:1", never by 1).
---@field names? table<string, string|integer>|table<string, string|integer>[] The calls that name it, by their params: `{ column = 3 }` is named by `drop column=3` (every param given must match), a list of such tables by a call matching any (`{ { from = "e2" }, { to = "e2" } }`).
---@field movable? boolean True on a piece a person moves (a pawn): the studio lets it be dragged onto a target, a node its legal calls also name. Default false: never dragged; a click still selects it.

---------------------------------------------------------------- animation plans

---A node of an animation plan, built with `anim.*`. The engine times it,
---composes it with the subactions' plans and checks it for conflicts.
---@class rulebench.Plan
---@field kind "tween"|"frames"|"wait"|"sound"|"cue"|"sequence"|"parallel"|"stagger"

---@alias rulebench.Easing "linear"|"easeIn"|"easeOut"|"easeInOut"

---@class rulebench.TweenSpec
---@field target string What moves, e.g. "token:p1".
---@field property string Which of its properties, e.g. "position".
---@field from? rulebench.Value The value at the start.
---@field to? rulebench.Value The value at the end.
---@field duration? number Seconds per run (default 0).
---@field delay? number Seconds before it starts (default 0).
---@field easing? rulebench.Easing Default "linear".
---@field ["repeat"] integer? Runs, at least 1 (default 1); `repeat` is a Lua keyword, so write ["repeat"] = n.
---@field autoreverse? boolean Each run goes to `to` and back (default false).

---@class rulebench.FramesSpec
---@field target string What is animated.
---@field property? string Default "frame".
---@field frames rulebench.Value[] The frames, in order (a non-empty list).
---@field fps? number Frames per second; give exactly one of `fps` and `duration`.
---@field duration? number Seconds per run; give exactly one of `fps` and `duration`.
---@field delay? number Seconds before it starts (default 0).
---@field ["repeat"] integer? Runs, at least 1 (default 1).

---@class rulebench.SoundSpec
---@field name string The sound's name; the host app maps it to a file.
---@field volume? number Default 1.0.
---@field delay? number Seconds from the start of the enclosing plan (default 0).
---@field do_only? boolean true: the sound belongs to the do (a win's fanfare); the undo's mirrored plan keeps its time but plays nothing (default false: the mirrored plan plays it too).

---@class rulebench.CueSpec
---@field name string A named host callback, e.g. "shake_screen".
---@field args? table<string, rulebench.Value> Plain data handed to the callback.
---@field delay? number Seconds from the start of the enclosing plan (default 0).
---@field do_only? boolean true: the cue belongs to the do (a win's cue); the undo's mirrored plan does not fire it (default false).

---A list of plans and the interval between their starts.
---@class rulebench.StaggerSpec
---@field interval number Seconds between the starts of consecutive items.
---@field [integer] rulebench.Plan

---The plan builder handed to `animate`.
---@class rulebench.Anim
local Anim = {}

---A property moving from one value to another over time.
---@param spec rulebench.TweenSpec
---@return rulebench.Plan
function Anim.tween(spec) end

---A property stepping through a list of frames.
---@param spec rulebench.FramesSpec
---@return rulebench.Plan
function Anim.frames(spec) end

---A pause.
---@param seconds number
---@return rulebench.Plan
function Anim.wait(seconds) end

---A sound at an instant.
---@param spec rulebench.SoundSpec|string A spec, or just the sound's name.
---@return rulebench.Plan
function Anim.sound(spec) end

---A named host callback at an instant.
---@param spec rulebench.CueSpec
---@return rulebench.Plan
function Anim.cue(spec) end

---Plans played one after the other; or, given a name, starts the story sequence
---`sequences/NAME.yaml` when the plan reaches it (a cue named "sequence"; docs/sequences.md).
---@param plans rulebench.Plan[]|string
---@return rulebench.Plan
function Anim.sequence(plans) end

---Plans started together; it lasts as long as the longest.
---@param plans rulebench.Plan[]
---@return rulebench.Plan
function Anim.parallel(plans) end

---Plans started `interval` seconds apart: { interval = 0.1, plan1, plan2, ... }.
---@param spec rulebench.StaggerSpec
---@return rulebench.Plan
function Anim.stagger(spec) end

---------------------------------------------------------------- require "rulebench"

---The engine's module, `require "rulebench"`. Its random generator lives in
---the game state (`game._rng`), so undo restores it and replays are identical.
---@class rulebench.Module
local rulebench = {}

---A random number from the engine's generator: with no bounds a float in
---[0, 1); with `m` an integer in 1..m; with `m` and `n` an integer in m..n.
---Call it only where the state may be written (setup, apply, undo).
---@param game rulebench.Game The root state table (the generator lives in it).
---@param m? integer
---@param n? integer
---@return number
---@overload fun(game: rulebench.Game): number
---@overload fun(game: rulebench.Game, m: integer): integer
---@overload fun(game: rulebench.Game, m: integer, n: integer): integer
function rulebench.random(game, m, n) end

---Shuffles a list in place with the engine's generator (Fisher-Yates) and returns it.
---@generic T: table
---@param game rulebench.Game
---@param list T
---@return T
function rulebench.shuffle(game, list) end

---A plain deep copy of a value: the way to store a second copy of a state table.
---@generic T
---@param value T
---@return T
function rulebench.copy(value) end

return rulebench
