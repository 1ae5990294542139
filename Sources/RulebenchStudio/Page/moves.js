// Moves on the board: a node hovered or selected lights the nodes its legal calls also name (its
// targets); clicking a target performs the call when exactly one call names both, and offers the
// choice when several do (a promotion, a jetpack with or without a passenger); dragging a node the
// view marks movable (`movable = true`: a pawn, a piece; drawn with data-movable) onto a target does
// the same. Any other node is never dragged: pressing it and moving the pointer does nothing, and a
// click selects it as before. Which call names which node is the server's (each legal call lists its nodes,
// by the library's SceneNode.isNamed); this module only matches those lists. The list of calls stays.

import { onPosition, onSelection, narrow, select, selected, send } from './studio.js';

const $ = (id) => document.getElementById(id);

let legal = [];          // the position's legal calls ({label, nodes})
let hovered = null;      // the node under the pointer

/// The calls naming `nodeID`.
function naming(nodeID) { return legal.filter((call) => call.nodes.includes(nodeID)); }

/// The other nodes the calls naming `nodeID` name: where it can go, or what it can act on.
export function targets(nodeID) {
  const out = new Set();
  if (!nodeID) return out;
  for (const call of naming(nodeID)) for (const other of call.nodes) if (other !== nodeID) out.add(other);
  return out;
}

/// The calls that name both `from` and `to`.
export function fitting(from, to) { return naming(from).filter((call) => call.nodes.includes(to)); }

/// Marks the drawn nodes: the selected one, its targets (else the hovered node's), the one a target
/// under the pointer would move. board.js calls it after each draw (the board is drawn every frame).
export function decorate() {
  const source = selected() || hovered;
  const lit = targets(source);
  const linked = document.body.dataset.linked;
  for (const g of document.querySelectorAll('#board g.node')) {
    const id = g.dataset.id;
    g.classList.toggle('selected', id === selected());
    g.classList.toggle('target', lit.has(id));
    g.classList.toggle('hover-target', lit.has(id) && id === hovered);
    g.classList.toggle('linked', !!linked && id === linked);
    if (lit.has(id)) g.dataset.target = 'true'; else delete g.dataset.target;
  }
  document.body.dataset.targets = [...lit].sort().join(' ');
}

/// Performs the one call naming both nodes, or offers the choice among several; false when none does.
function move(from, to, near) {
  const calls = fitting(from, to);
  if (!calls.length) return false;
  if (calls.length === 1) send({ type: 'perform', call: calls[0].label });
  else offer(calls, from, to, near);
  return true;
}

/// A click on node `id`: on a target of the selected node, the move; else it selects the node (the list
/// of calls narrows to those naming it), or, on the selected node, shows every call again.
function clicked(id, element) {
  const from = selected();
  if (from && id !== from && move(from, id, element)) return;
  narrow(id);
}

// MARK: The choice

function offer(calls, from, to, near) {
  const box = $('choice');
  const title = Object.assign(document.createElement('p'), { textContent: `${calls.length} calls name ${from} and ${to}:` });
  box.replaceChildren(title, ...calls.map((call) => {
    const button = Object.assign(document.createElement('button'), { textContent: call.label });
    button.setAttribute('role', 'menuitem');
    button.addEventListener('click', () => { closeChoice(); send({ type: 'perform', call: call.label }); });
    return button;
  }));
  const cancel = Object.assign(document.createElement('button'), { textContent: 'cancel' });
  cancel.addEventListener('click', closeChoice);
  box.append(cancel);
  const frame = $('board-frame').getBoundingClientRect();
  const at = near ? near.getBoundingClientRect() : frame;
  box.style.left = `${Math.max(0, Math.min(frame.width - 240, at.right - frame.left + 4))}px`;
  box.style.top = `${Math.max(0, Math.min(frame.height - 40 * (calls.length + 1), at.top - frame.top))}px`;
  box.hidden = false;
  box.querySelector('button').focus();
}

function closeChoice() { $('choice').hidden = true; }

// MARK: Pointer

// A press on a node, by its id: the board is drawn again every frame while a step plays, so the element
// pressed may be gone when the button is released, and no click event would come; the id stays.
let press = null;        // { from, x, y, movable, dragging }

function nodeAt(x, y) {
  const hit = document.elementFromPoint(x, y);
  return hit && hit.closest ? hit.closest('#board g.node') : null;
}

function wire() {
  $('board').addEventListener('pointerdown', (e) => {
    const g = e.target.closest('g.node');
    press = e.button === 0 && g
      ? { from: g.dataset.id, x: e.clientX, y: e.clientY, movable: g.dataset.movable === 'true', dragging: false } : null;
  });
  document.addEventListener('pointermove', (e) => {
    if (press && press.movable && !press.dragging && Math.hypot(e.clientX - press.x, e.clientY - press.y) > 6
        && targets(press.from).size) {
      press.dragging = true;
      if (selected() !== press.from) select(press.from);
      $('board-frame').classList.add('dragging');
    }
    const under = nodeAt(e.clientX, e.clientY);
    const id = under ? under.dataset.id : null;
    if (id !== hovered) { hovered = id; decorate(); }
  });
  document.addEventListener('pointerup', (e) => {
    if (!press) return;
    const was = press;
    press = null;
    $('board-frame').classList.remove('dragging');
    const onto = nodeAt(e.clientX, e.clientY);
    if (!was.dragging) {
      // A click: pressed and released on the same node (the same id, whatever element draws it now).
      if (onto && onto.dataset.id === was.from) clicked(was.from, onto);
      return;
    }
    // A drop on a target moves there; a drop anywhere else keeps the node selected, its targets lit.
    if (onto && onto.dataset.id !== was.from) move(was.from, onto.dataset.id, onto);
  });
  $('board').addEventListener('mouseleave', () => { hovered = null; decorate(); });
  document.addEventListener('keydown', (e) => { if (e.key === 'Escape') { closeChoice(); if (selected()) select(null); } });
}

onPosition((p) => {
  legal = p.legal || [];
  closeChoice();
  decorate();
});
onSelection(() => { closeChoice(); decorate(); });
wire();
