// The board: the view's scene drawn as SVG, and each step's animation played from the
// keyframes the library computed (the page only interpolates them, by the reading rules
// of Sources/Rulebench/View/NodeTrack.swift). Time is performance.now() scaled by the speed
// control, driven by requestAnimationFrame, so a test's clock controls it exactly.

import { onPosition, narrow } from './studio.js';

const SVG = 'http://www.w3.org/2000/svg';
const $ = (id) => document.getElementById(id);
const easings = {
  linear: (t) => t,
  easeIn: (t) => t * t,
  easeOut: (t) => 1 - (1 - t) * (1 - t),
  easeInOut: (t) => (t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t)),
};

let scene = null;        // the scene after the step (what shows when the animation ends)
let playing = null;      // { keyframes, duration, start, fired: Set }
const soundFiles = new Map();   // sound name -> whether the pack has a file for it

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

function sprite(node, atlases) {
  const atlas = atlases.find((a) => a.name === node.sprite.atlas);
  if (!atlas) return null;
  const index = node.sprite.frame - 1;
  const col = index % atlas.columns, row = Math.floor(index / atlas.columns);
  const rows = Math.ceil(atlas.count / atlas.columns);
  const view = element('svg', { x: -node.width / 2, y: -node.height / 2, width: node.width, height: node.height,
    viewBox: `${col * atlas.frameWidth} ${row * atlas.frameHeight} ${atlas.frameWidth} ${atlas.frameHeight}`, preserveAspectRatio: 'none' });
  view.append(element('image', { href: `/pack/${atlas.image}`, width: atlas.columns * atlas.frameWidth, height: rows * atlas.frameHeight }));
  return view;
}

function drawNode(node, atlases) {
  const g = element('g', {
    class: 'node', 'data-id': node.id, 'data-x': node.x, 'data-y': node.y, 'data-opacity': node.opacity,
    'data-frame': node.sprite ? node.sprite.frame : null, role: 'img', 'aria-label': node.label || node.id,
    transform: `translate(${node.x} ${node.y}) rotate(${node.rotation}) scale(${node.scale})`, opacity: node.opacity,
  });
  const shape = outline(node);
  if (shape) g.append(shape);
  if (node.image) g.append(element('image', { href: `/pack/${node.image}`, x: -node.width / 2, y: -node.height / 2, width: node.width, height: node.height }));
  if (node.sprite) { const s = sprite(node, atlases); if (s) g.append(s); }
  if (node.text) {
    const text = element('text', { 'text-anchor': 'middle', 'dominant-baseline': 'central', fill: node.textColor || '#222', 'font-size': Math.max(9, Math.min(14, node.height / 2.6)) });
    text.textContent = node.text;
    g.append(text);
  }
  g.addEventListener('click', () => narrow(node.id));
  return g;
}

function draw(nodes, frame) {
  const board = $('board');
  if (!frame) { board.replaceChildren(); return; }
  const svg = element('svg', { viewBox: `0 0 ${frame.width} ${frame.height}`, width: frame.width, height: frame.height, role: 'group', 'aria-label': 'Scene' });
  if (frame.background) svg.append(element('rect', { width: frame.width, height: frame.height, fill: frame.background }));
  if (frame.backgroundImage) svg.append(element('image', { href: `/pack/${frame.backgroundImage}`, width: frame.width, height: frame.height, preserveAspectRatio: 'none' }));
  const ordered = nodes.map((n, i) => [n, i]).sort((a, b) => (a[0].layer - b[0].layer) || (a[1] - b[1])).map((p) => p[0]);
  for (const node of ordered) svg.append(drawNode(node, frame.atlases));
  board.replaceChildren(svg);
}

// MARK: Playing

function speed() { return Number($('speed').value) || 1; }

/// Seconds of animation since it started, at the chosen speed.
function now() { return ((performance.now() - playing.start) / 1000) * playing.speed; }

function play(animation) {
  playing = { keyframes: animation.keyframes, duration: animation.keyframes.duration, start: performance.now(), speed: speed(), fired: new Set() };
  $('cues').replaceChildren();
  document.body.dataset.playing = 'true';
  frame();
}

function frame() {
  if (!playing) return;
  cancelAnimationFrame(playing.request);
  const time = Math.min(now(), playing.duration);
  const k = playing.keyframes;
  draw(k.tracks.map((t) => pose(t, time)).filter(Boolean), scene);
  fire(k.sounds, 'sound', time);
  fire(k.cues, 'cue', time);
  playhead(time);
  if (time >= playing.duration) {
    playing = null;
    document.body.dataset.playing = 'false';
    draw(scene ? scene.nodes : [], scene);
    return;
  }
  playing.request = requestAnimationFrame(frame);
}

function fire(events, kind, time) {
  events.forEach((event, index) => {
    const key = `${kind}:${index}`;
    if (event.time > time || playing.fired.has(key)) return;
    playing.fired.add(key);
    const chip = document.createElement('span');
    chip.className = kind;
    chip.dataset.kind = kind;
    chip.dataset.name = event.name;
    chip.dataset.time = String(event.time);
    chip.dataset.firedAt = String(time);
    chip.textContent = kind === 'sound' ? `♪ ${event.name}` : `cue ${event.name}`;
    $('cues').append(chip);
    if (kind === 'sound') sound(event, chip);
  });
}

/// Plays a sound from the view's sounds folder (the server finds its file: /sound/NAME);
/// marks the chip when the pack has no file for it.
async function sound(event, chip) {
  const url = `/sound/${encodeURIComponent(event.name)}`;
  if (!soundFiles.has(event.name)) soundFiles.set(event.name, (await fetch(url)).ok);
  if (!soundFiles.get(event.name)) {
    chip.classList.add('missing');
    chip.textContent = `♪ ${event.name} (missing sound file)`;
    return;
  }
  chip.dataset.file = url;
  if ($('mute').checked) return;
  const audio = new Audio(url);
  audio.volume = Math.max(0, Math.min(1, event.volume));
  audio.play().catch(() => {});
}

function playhead(time) {
  const plot = document.querySelector('#timeline #plot');
  const head = $('playhead');
  if (!plot || !head) return;
  const chart = document.querySelector('#timeline svg');
  const ratio = chart.getBoundingClientRect().width / Number(chart.getAttribute('width'));
  const x = Number(plot.dataset.left) + Math.min(1, time / Number(plot.dataset.span)) * Number(plot.dataset.width);
  head.style.left = `${x * ratio}px`;
  head.dataset.time = String(time);
}

function showAnimation(position) {
  const animation = position.animation;
  $('animation-label').textContent = animation ? `${animation.label} (${animation.duration.toFixed(2)} s)` : '';
  const box = $('timeline');
  box.innerHTML = animation ? animation.chart.replace(/^<\?xml[^>]*>/, '') : '';
  if (animation) box.append(Object.assign(document.createElement('div'), { id: 'playhead' }));
}

onPosition((position) => {
  scene = position.scene;
  $('board').hidden = !scene;
  if (position.viewError) $('board').textContent = position.viewError;
  showAnimation(position);
  playing = null;
  if (position.animation && position.animation.keyframes && scene) play(position.animation);
  else draw(scene ? scene.nodes : [], scene);
});

// For tools that drive the page's clock (the browser tests): frames land about every 16 ms,
// so after moving the clock to an exact time they draw that instant.
window.studioBoard = { drawNow: () => { if (playing) frame(); } };

$('replay').addEventListener('click', () => {
  const last = window.studioPosition;
  if (last && last.animation && last.animation.keyframes) play(last.animation);
});
