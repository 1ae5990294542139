// The studio's stage: the board fitted to the space the window gives it, zoomed and panned by moving
// the SVG's viewBox (so it stays sharp at any zoom), the keyboard (←/→ step through the history,
// Home/End go to its ends, space plays the step's animation again), and the dock of folding panels
// other modules add to (addPanel). It keeps only the view's zoom and pan; the game is the server's.

import { onPosition, send } from './studio.js';

const $ = (id) => document.getElementById(id);

// MARK: Zoom and pan

const MAX_ZOOM = 8;
let frame = null;                 // the scene's frame ({width, height}) last drawn
const view = { zoom: 1, x: 0, y: 0 };   // the viewBox's zoom and its top-left corner, in scene units

function clampView() {
  if (!frame) return;
  view.zoom = Math.max(1, Math.min(MAX_ZOOM, view.zoom));
  const w = frame.width / view.zoom, h = frame.height / view.zoom;
  view.x = Math.max(0, Math.min(frame.width - w, view.x));
  view.y = Math.max(0, Math.min(frame.height - h, view.y));
}

/// Sets the drawn board's viewBox to the zoom and pan (the whole scene at zoom 1). board.js calls it after
/// every draw; the SVG fills #board and keeps its aspect (preserveAspectRatio meet), so at zoom 1 the
/// scene is as large as the frame allows.
export function fitBoard(board = $('board')) {
  const svg = board.querySelector('svg');
  if (!svg) return;
  const next = { width: Number(svg.getAttribute('width')), height: Number(svg.getAttribute('height')) };
  if (!frame || frame.width !== next.width || frame.height !== next.height) {
    frame = next;
    Object.assign(view, { zoom: 1, x: 0, y: 0 });
  }
  clampView();
  svg.setAttribute('viewBox', `${view.x} ${view.y} ${frame.width / view.zoom} ${frame.height / view.zoom}`);
  document.body.dataset.zoom = String(view.zoom);
}

/// The scene point under the client point (x, y), by the drawn SVG's own transform.
function scenePoint(svg, x, y) {
  const matrix = svg.getScreenCTM();
  if (!matrix) return null;
  const p = new DOMPoint(x, y).matrixTransform(matrix.inverse());
  return { x: p.x, y: p.y };
}

/// Zooms by `factor` keeping the scene point under (clientX, clientY) where it is (the frame's centre without one).
export function zoomBy(factor, clientX, clientY) {
  const svg = $('board').querySelector('svg');
  if (!svg || !frame) return;
  const box = svg.getBoundingClientRect();
  const at = scenePoint(svg, clientX ?? box.left + box.width / 2, clientY ?? box.top + box.height / 2);
  const before = { ...view };
  view.zoom *= factor;
  clampView();
  if (at) {
    const k = before.zoom / view.zoom;
    view.x = at.x - (at.x - before.x) * k;
    view.y = at.y - (at.y - before.y) * k;
  }
  fitBoard();
}

function wireZoom() {
  const box = $('board-frame');
  $('zoom-in').addEventListener('click', () => zoomBy(1.25));
  $('zoom-out').addEventListener('click', () => zoomBy(0.8));
  $('zoom-fit').addEventListener('click', () => { Object.assign(view, { zoom: 1, x: 0, y: 0 }); fitBoard(); });
  box.addEventListener('wheel', (e) => {
    e.preventDefault();
    zoomBy(e.deltaY < 0 ? 1.15 : 1 / 1.15, e.clientX, e.clientY);
  }, { passive: false });
  // Pan: drag the board where no node is (a node's drag is a move: moves.js).
  let pan = null;
  box.addEventListener('pointerdown', (e) => {
    if (e.button !== 0 || e.target.closest('.node, button, #choice') || view.zoom === 1) return;
    const svg = $('board').querySelector('svg');
    if (!svg) return;
    pan = { x: e.clientX, y: e.clientY, view: { ...view }, scale: frame.width / view.zoom / svg.getBoundingClientRect().width };
    const ctm = svg.getScreenCTM();
    if (ctm) pan.scale = 1 / ctm.a;
    box.classList.add('panning');
    box.setPointerCapture(e.pointerId);
  });
  box.addEventListener('pointermove', (e) => {
    if (!pan) return;
    view.x = pan.view.x - (e.clientX - pan.x) * pan.scale;
    view.y = pan.view.y - (e.clientY - pan.y) * pan.scale;
    fitBoard();
  });
  const end = () => { pan = null; box.classList.remove('panning'); };
  box.addEventListener('pointerup', end);
  box.addEventListener('pointercancel', end);
}

// MARK: Keyboard

let position = null;

/// ←/→ one step back or on (the engine's undo or redo, animated), Home/End to the history's ends,
/// space plays the step's animation again. Keys typed into a field or a list stay theirs; the History
/// slider's own arrow keys are these (one step, animated), not the browser's.
function key(e) {
  if (!position || e.altKey || e.ctrlKey || e.metaKey) return;
  const target = e.target;
  const slider = target === $('history');
  if (!slider && target.closest && target.closest('input, select, textarea, [contenteditable]')) return;
  const last = position.count;
  let step = null;
  if (e.key === 'ArrowLeft') step = position.step - 1;
  else if (e.key === 'ArrowRight') step = position.step + 1;
  else if (e.key === 'Home') step = 0;
  else if (e.key === 'End') step = last;
  else if (e.key === ' ' && !slider && !(target.closest && target.closest('button, summary, a'))) {
    e.preventDefault();
    $('replay').click();
    return;
  } else if (e.key === 'Escape') {
    return;
  } else return;
  e.preventDefault();
  if (step < 0 || step > last || step === position.step) return;
  send({ type: 'seek', step });
}

// MARK: The dock

/// Adds a folding panel to the dock beside the board and returns it (a <details> whose <summary> is
/// `title`); put the panel's content in it. `options.before` names a panel id it goes above (default:
/// the end of the dock); `options.open` false starts it folded. This is the hook other modules use
/// (the levels list, a seat's bot choice, ...): one call, no change to index.html.
export function addPanel(id, title, { open = true, before = null } = {}) {
  const panel = document.createElement('details');
  panel.className = 'panel';
  panel.id = id;
  panel.open = open;
  const summary = document.createElement('summary');
  summary.textContent = title;
  panel.append(summary);
  const anchor = before ? $(before) : null;
  $('dock').insertBefore(panel, anchor);
  return panel;
}

onPosition((p) => { position = p; });
document.addEventListener('keydown', key);
new ResizeObserver(() => fitBoard()).observe($('board-frame'));
wireZoom();
window.studioStage = { addPanel, zoomBy, view };
