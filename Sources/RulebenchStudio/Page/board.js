// The studio's board: the view's scene drawn by the shared board module (/scene.js), and each
// step's animation played from the poses the library computed (the server sends every node's pose
// sampled at a fixed rate; each frame draws the sample nearest its time, computing no pose). Time is
// performance.now() scaled by the speed control, driven by requestAnimationFrame, so a test's clock
// controls it exactly.

import { onPosition } from './studio.js';
import { drawScene, reelNodes, reelSample } from './scene.js';
import { fitBoard } from './stage.js';
import { decorate } from './moves.js';

const $ = (id) => document.getElementById(id);

let scene = null;        // the scene after the step (what shows when the animation ends)
let playing = null;      // { reel, duration, start, fired: Set }
const soundFiles = new Map();   // sound name -> whether the pack has a file for it
// A click on a node is heard by moves.js (one listener on the board, which is drawn again every frame).
const drawing = { asset: (path) => `/pack/${path}` };

/// Draws the nodes, fitted to the board's frame (stage.js: zoom and pan), with the moves' marks
/// (moves.js: the selected node, its targets) kept across frames.
function draw(nodes, frame) {
  drawScene($('board'), nodes, frame, drawing);
  fitBoard();
  decorate();
}

// MARK: Playing

function speed() { return Number($('speed').value) || 1; }

/// Seconds of animation since it started, at the chosen speed.
function now() { return ((performance.now() - playing.start) / 1000) * playing.speed; }

function play(animation) {
  playing = { reel: animation.poses, duration: animation.poses.duration, start: performance.now(), speed: speed(), fired: new Set() };
  $('cues').replaceChildren();
  document.body.dataset.playing = 'true';
  frame();
}

function frame() {
  if (!playing) return;
  cancelAnimationFrame(playing.request);
  const time = Math.min(now(), playing.duration);
  const reel = playing.reel;
  const sample = reelSample(reel, time);
  draw(reelNodes(reel, sample), scene);
  document.body.dataset.sample = String(sample);
  fire(reel.sounds, 'sound', time);
  fire(reel.cues, 'cue', time);
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
  chart.dataset.time = String(time);
}

function showAnimation(position) {
  const animation = position.animation;
  $('animation-label').textContent = animation ? `${animation.label} (${animation.duration.toFixed(2)} s)` : '';
  const box = $('timeline');
  box.innerHTML = animation ? animation.chart.replace(/^<\?xml[^>]*>/, '') : '';
  if (animation) box.append(Object.assign(document.createElement('div'), { id: 'playhead' }));
  sizeChart();
}

// MARK: The timeline

/// The chart as wide as the panel, never narrower than its own size (its text stays legible at any
/// window), times the time zoom; the panel scrolls across a chart wider than it.
function sizeChart() {
  const chart = document.querySelector('#timeline svg');
  if (!chart) return;
  const natural = Number(chart.getAttribute('width')), height = Number(chart.getAttribute('height'));
  if (!chart.getAttribute('viewBox')) chart.setAttribute('viewBox', `0 0 ${natural} ${height}`);
  const room = $('timeline-scroll').clientWidth || natural;
  const width = Math.ceil(Math.max(natural, room) * (Number($('time-zoom').value) || 1));
  if (chart.style.width !== `${width}px`) {
    chart.style.width = `${width}px`;
    $('timeline').style.width = `${width}px`;
    chart.style.height = 'auto';
  }
  if (playing) frame();
  else if (chart.dataset.time) playhead(Number(chart.dataset.time));
}

/// Hovering a bar lights its node on the board, and hovering a node lights its bars (and each other).
function link(nodeID) {
  for (const lit of document.querySelectorAll('.linked')) lit.classList.remove('linked');
  document.body.dataset.linked = nodeID || '';
  if (!nodeID) return;
  const name = CSS.escape(nodeID);
  for (const lit of document.querySelectorAll(`#timeline [data-node="${name}"], #board g.node[data-id="${name}"]`)) lit.classList.add('linked');
}

function wireTimeline() {
  $('time-zoom').addEventListener('input', sizeChart);
  new ResizeObserver(sizeChart).observe($('timeline-scroll'));
  $('timeline').addEventListener('mouseover', (e) => link(e.target.closest('[data-node]')?.dataset.node));
  $('timeline').addEventListener('mouseleave', () => link(null));
  $('board').addEventListener('mouseover', (e) => {
    const node = e.target.closest('g.node');
    if (node && document.querySelector(`#timeline [data-node="${CSS.escape(node.dataset.id)}"]`)) link(node.dataset.id);
  });
  $('board').addEventListener('mouseleave', () => link(null));
}
wireTimeline();

onPosition((position) => {
  scene = position.scene;
  $('board').hidden = !scene && !position.viewError;
  // A pack without a view gives the space to its render text; a view that fails says why there.
  $('board-frame').hidden = !scene && !position.viewError;
  if (position.viewError) $('board').textContent = position.viewError;
  showAnimation(position);
  playing = null;
  if (position.animation && position.animation.poses && scene) play(position.animation);
  else if (scene || !position.viewError) draw(scene ? scene.nodes : [], scene);
});

// For tools that drive the page's clock (the browser tests): frames land about every 16 ms,
// so after moving the clock to an exact time they draw that instant.
window.studioBoard = { drawNow: () => { if (playing) frame(); } };

$('replay').addEventListener('click', () => {
  const last = window.studioPosition;
  if (last && last.animation && last.animation.poses) play(last.animation);
});
