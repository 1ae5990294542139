// The board both pages draw (the studio's and the match page of `rulebench serve`): a view's
// scene as SVG, each node at its pose in a step's keyframes (the page only interpolates the
// keyframes the library computed, by the reading rules of Sources/Rulebench/View/NodeTrack.swift),
// and the glide between two scenes for a step that comes without keyframes. Draws only: it keeps
// no state, opens no socket and reads no clock; its callers own time and what is shown.

const SVG = 'http://www.w3.org/2000/svg';
export const easings = {
  linear: (t) => t,
  easeIn: (t) => t * t,
  easeOut: (t) => 1 - (1 - t) * (1 - t),
  easeInOut: (t) => (t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t)),
};

// MARK: Reading keyframes (NodeTrack.pose)

function segment(keys, time) {
  let index = -1;
  for (let i = 0; i < keys.length; i++) if (keys[i].time <= time) index = i;
  if (index < 0) return null;
  const key = keys[index];
  if (index + 1 >= keys.length) return [key, key, 0];
  const next = keys[index + 1];
  const span = next.time - key.time;
  return [key, next, span > 0 ? easings[next.easing]((time - key.time) / span) : 1];
}

function point(keys, time) {
  if (!keys.length) return null;
  const s = segment(keys, time);
  if (!s) return { x: keys[0].x, y: keys[0].y };
  const [a, b, f] = s;
  return { x: a.x + (b.x - a.x) * f, y: a.y + (b.y - a.y) * f };
}

function number(keys, time) {
  if (!keys.length || time > keys[keys.length - 1].time) return null;
  const s = segment(keys, time);
  if (!s) return null;
  const [a, b, f] = s;
  return a.value + (b.value - a.value) * f;
}

export function pose(track, time) {
  if (track.appear != null && time < track.appear) return null;
  if (track.vanish != null && time >= track.vanish) return null;
  const look = time < track.change ? (track.before || track.after) : (track.after || track.before);
  if (!look) return null;
  const node = { ...look, sprite: look.sprite ? { ...look.sprite } : undefined };
  const p = point(track.place, time);
  if (p) { node.x = p.x; node.y = p.y; }
  node.opacity = number(track.opacity, time) ?? node.opacity;
  node.rotation = number(track.rotation, time) ?? node.rotation;
  node.scale = number(track.scale, time) ?? node.scale;
  let frame = null;
  for (const key of track.frame) if (key.time <= time) frame = key;
  if (frame && frame.frame != null && node.sprite) node.sprite.frame = frame.frame;
  return node;
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
    'data-frame': node.sprite ? node.sprite.frame : null, role: 'img', 'aria-label': node.label || node.id,
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

/// The nodes a fraction `f` (0 to 1, eased) of the way from scene `before` to scene `after`, for a step
/// that comes with no keyframes (a peer's step): a node in both glides from its old place and fades
/// to its new opacity; a new node fades in; a node gone fades out.
export function between(before, after, f) {
  const e = easings.easeInOut(Math.max(0, Math.min(1, f)));
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
