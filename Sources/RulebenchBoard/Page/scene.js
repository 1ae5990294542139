// The board both pages draw (the studio's and the match page of `rulebench serve`): a view's
// scene as SVG, a step's animation as the poses the library computed (Sources/Rulebench/View/
// PoseReel.swift: every node's pose sampled at a fixed rate; this module picks a sample and draws
// it, and computes no pose and no easing), and the glide between two scenes for a step that comes
// without poses. Draws only: it keeps no state, opens no socket and reads no clock; its callers own
// time and what is shown.

const SVG = 'http://www.w3.org/2000/svg';

// MARK: Playing a step (the library's poses)

/// The sample of a step's reel shown at `time` (seconds from its start): the nearest one
/// (PoseReel.sample(at:)).
export function reelSample(reel, time) {
  return Math.max(0, Math.min(reel.count - 1, Math.round(time * reel.rate)));
}

/// The nodes of sample `i` of a reel, as the library posed them: each track's run at `i` (the last one
/// starting at or before it) is `[start]` (hidden) or `[start, look, x, y, opacity, rotation, scale,
/// frame]`, drawn as its look at that place. Nothing is computed here: the poses are the library's.
export function reelNodes(reel, i) {
  const nodes = [];
  for (const track of reel.tracks) {
    const runs = track.runs;
    let low = 0, high = runs.length;
    while (low < high) { const mid = (low + high) >> 1; if (runs[mid][0] <= i) low = mid + 1; else high = mid; }
    const run = low ? runs[low - 1] : null;
    if (!run || run.length === 1) continue;
    const [, look, x, y, opacity, rotation, scale, frame] = run;
    const node = { ...reel.looks[look], x, y, opacity, rotation, scale };
    if (node.sprite) node.sprite = { ...node.sprite, frame: frame ?? node.sprite.frame };
    nodes.push(node);
  }
  return nodes;
}

// MARK: Drawing

function element(name, attributes) {
  const e = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) if (value != null) e.setAttribute(key, String(value));
  return e;
}

function outline(node) {
  const w = node.width, h = node.height;
  const paint = { fill: node.color || 'none', stroke: node.stroke || 'none', 'stroke-width': 2 };
  switch (node.shape) {
    case 'circle': return element('ellipse', { cx: 0, cy: 0, rx: w / 2, ry: h / 2, ...paint });
    case 'diamond': return element('polygon', { points: `0,${-h / 2} ${w / 2},0 0,${h / 2} ${-w / 2},0`, ...paint });
    case 'round': return element('rect', { x: -w / 2, y: -h / 2, width: w, height: h, rx: Math.min(w, h) / 6, ...paint });
    case 'none': return null;
    default: return element('rect', { x: -w / 2, y: -h / 2, width: w, height: h, ...paint });
  }
}

function sprite(node, atlases, asset) {
  const atlas = atlases.find((a) => a.name === node.sprite.atlas);
  if (!atlas) return null;
  const index = node.sprite.frame - 1;
  const col = index % atlas.columns, row = Math.floor(index / atlas.columns);
  const rows = Math.ceil(atlas.count / atlas.columns);
  const view = element('svg', { x: -node.width / 2, y: -node.height / 2, width: node.width, height: node.height,
    viewBox: `${col * atlas.frameWidth} ${row * atlas.frameHeight} ${atlas.frameWidth} ${atlas.frameHeight}`, preserveAspectRatio: 'none' });
  view.append(element('image', { href: asset(atlas.image), width: atlas.columns * atlas.frameWidth, height: rows * atlas.frameHeight }));
  return view;
}

function drawNode(node, atlases, options) {
  const g = element('g', {
    class: 'node', 'data-id': node.id, 'data-x': node.x, 'data-y': node.y, 'data-opacity': node.opacity,
    'data-frame': node.sprite ? node.sprite.frame : null, 'data-movable': node.movable ? 'true' : null,
    role: 'img', 'aria-label': node.label || node.id,
    transform: `translate(${node.x} ${node.y}) rotate(${node.rotation}) scale(${node.scale})`, opacity: node.opacity,
  });
  const shape = outline(node);
  if (shape) g.append(shape);
  if (node.image) g.append(element('image', { href: options.asset(node.image), x: -node.width / 2, y: -node.height / 2, width: node.width, height: node.height }));
  if (node.sprite) { const s = sprite(node, atlases, options.asset); if (s) g.append(s); }
  if (node.text) {
    const text = element('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: node.textColor || '#222', 'font-size': Math.max(9, Math.min(14, node.height / 2.6)) });
    text.textContent = node.text;
    g.append(text);
  }
  if (options.onNode) g.addEventListener('click', () => options.onNode(node.id));
  return g;
}

/// Draws `nodes` on the scene's `frame` into `board` (replacing what it held; nothing when there is no frame).
/// `options.asset(path)` is the URL of a pack file the scene names; `options.onNode(id)` hears a click on a node.
export function drawScene(board, nodes, frame, options) {
  if (!frame) { board.replaceChildren(); return; }
  const svg = element('svg', { viewBox: `0 0 ${frame.width} ${frame.height}`, width: frame.width, height: frame.height, role: 'group', 'aria-label': 'Scene' });
  if (frame.background) svg.append(element('rect', { width: frame.width, height: frame.height, fill: frame.background }));
  if (frame.backgroundImage) svg.append(element('image', { href: options.asset(frame.backgroundImage), width: frame.width, height: frame.height, preserveAspectRatio: 'none' }));
  const ordered = nodes.map((n, i) => [n, i]).sort((a, b) => (a[0].layer - b[0].layer) || (a[1] - b[1])).map((p) => p[0]);
  for (const node of ordered) svg.append(drawNode(node, frame.atlases, options));
  board.replaceChildren(svg);
}

// MARK: Between two scenes

/// The nodes a fraction `f` (0 to 1) of the way from scene `before` to scene `after`, for a step that
/// comes with no poses (a peer's step on the match page): a node in both glides straight and evenly
/// from its old place and fades to its new opacity; a new node fades in; a node gone fades out. (A
/// cross-fade of two scenes, not a plan's pose: it has no easing, which the library alone defines.)
export function between(before, after, f) {
  const e = Math.max(0, Math.min(1, f));
  const old = new Map(before.map((n) => [n.id, n]));
  const kept = new Set(after.map((n) => n.id));
  const mix = (a, b) => a + (b - a) * e;
  const nodes = after.map((n) => {
    const was = old.get(n.id);
    if (!was) return { ...n, opacity: n.opacity * e };
    return { ...n, x: mix(was.x, n.x), y: mix(was.y, n.y), opacity: mix(was.opacity, n.opacity),
      rotation: mix(was.rotation, n.rotation), scale: mix(was.scale, n.scale) };
  });
  for (const n of before) if (!kept.has(n.id)) nodes.push({ ...n, opacity: n.opacity * (1 - e) });
  return nodes;
}
