// The studio's board: the view's scene drawn by the shared board module (/scene.js), and each
// step's animation played from the keyframes the library computed. Time is performance.now()
// scaled by the speed control, driven by requestAnimationFrame, so a test's clock controls it exactly.

import { onPosition, narrow } from './studio.js';
import { pose, drawScene } from './scene.js';

const $ = (id) => document.getElementById(id);

let scene = null;        // the scene after the step (what shows when the animation ends)
let playing = null;      // { keyframes, duration, start, fired: Set }
const soundFiles = new Map();   // sound name -> whether the pack has a file for it
const drawing = { asset: (path) => `/pack/${path}`, onNode: narrow };

function draw(nodes, frame) { drawScene($('board'), nodes, frame, drawing); }

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
