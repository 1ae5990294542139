// Rulebench Studio's page logic: one WebSocket to the server, which owns the game.
// Every button sends a request; every change comes back as a "position" message that
// is drawn whole (so several tabs always agree). Nothing here replays or judges the game.

const $ = (id) => document.getElementById(id);
let socket;
let nextID = 1;
let position = null;
let narrowTo = null;      // the node id a click on the board narrowed the legal calls to
const listeners = [];     // other modules (the board) hear each position
const replies = new Map();   // message type -> the other modules' listeners (the level list hears "levels")

/// Hears every position from now on, and the last one already shown (a module that finished loading
/// after the socket's first message, as the board does while it fetches /scene.js, misses nothing).
export function onPosition(listener) {
  listeners.push(listener);
  if (position) listener(position);
}

/// Hears every message of `type` the server sends this page (besides the ones this module shows).
export function onMessage(type, listener) {
  replies.set(type, [...(replies.get(type) ?? []), listener]);
}

export function send(message) {
  message.id = nextID++;
  socket.send(JSON.stringify(message));
}

function connect() {
  socket = new WebSocket(`ws://${location.host}/socket`);
  socket.addEventListener('open', () => { $('connection').textContent = 'connected'; });
  socket.addEventListener('close', () => { $('connection').textContent = 'disconnected (reload the page)'; });
  socket.addEventListener('message', (event) => receive(parseExact(event.data)));
}

/// JSON with whole numbers beyond 2^53 kept exact (as BigInt): state hashes' random
/// generators and large counters must read as the server wrote them.
export function parseExact(text) {
  return JSON.parse(text, (key, value, context) =>
    typeof value === 'number' && !Number.isSafeInteger(value) && context && /^-?\d+$/.test(context.source)
      ? BigInt(context.source) : value);
}

/// A leaf value as JSON text (a BigInt as its digits).
function leafText(value) {
  return typeof value === 'bigint' ? value.toString() : JSON.stringify(value);
}

function receive(message) {
  for (const listener of replies.get(message.type) ?? []) listener(message);
  if (message.type === 'position') return show(message);
  if (message.type === 'error') return say(`error (${message.kind}): ${message.message}`, true);
  if (message.type === 'saved') return say(`saved ${message.steps} steps to ${message.path} (check it with rulebench replay ${message.path})`);
}

function say(text, isError = false) {
  const status = $('status');
  status.textContent = text;
  status.className = isError ? 'error' : '';
}

function show(next) {
  position = next;
  window.studioPosition = next;
  document.title = `Rulebench Studio: ${next.source.name}`;
  $('title').textContent = `${next.source.kind} ${next.source.name} (${next.pack.name} ${next.pack.version})`;
  if (!$('save-path').value) $('save-path').value = next.savePath;   // the studio's proposal: always inside its folder
  showSeat(next);
  showHistory(next);
  showLegal(next);
  $('render').textContent = next.render;
  $('render').hidden = next.render === '' || next.scene !== null;   // the board shows it
  showChanges(next.changes);
  showState(next.state, next.changes);
  showFinding(next.finding);
  showReload(next.reload);
  for (const listener of listeners) listener(next);
  document.body.dataset.revision = String(Number(document.body.dataset.revision || 0) + 1);
}

/// The seat picker of a seated pack: the author's view (everything; the default) or one
/// seat's, which the server sends alone (its view, scene and calls: nothing hidden from it).
function showSeat(p) {
  $('seat-picker').hidden = !p.seats.length;
  const choices = [['', 'the author (everything)'], ...p.seats.map((seat) => [seat, seat])];
  $('seat').replaceChildren(...choices.map(([value, text]) =>
    Object.assign(document.createElement('option'), { value, textContent: text })));
  $('seat').value = p.seat ?? '';
  document.body.dataset.seat = p.seat ?? '';
}

function showHistory(p) {
  const slider = $('history');
  slider.max = String(p.count);
  slider.value = String(p.step);
  $('step-label').textContent = `step ${p.step} of ${p.count}`;
  $('hash').textContent = p.hash;
  $('undo').disabled = p.step === 0;
  $('redo').disabled = p.step === p.count;
  const entry = p.step > 0 ? p.entries[p.step - 1] : null;
  $('verified').textContent = entry
    ? `step ${p.step} (${entry.call}): undo ${verdict(entry.undo)}, redo ${verdict(entry.redo)}`
    : 'after setup';
  $('scenario-steps').replaceChildren(...p.scenarioSteps.map((at, index) => {
    const button = document.createElement('button');
    button.textContent = `scenario step ${index + 1}`;
    button.dataset.position = String(at);
    button.addEventListener('click', () => send({ type: 'seek', step: at }));
    return button;
  }));
  // Failures at position 0 (after setup) go above the list: the list holds only steps.
  $('setup-marks').replaceChildren('setup', ...p.setupMarks.map(markLine));
  $('setup-marks').hidden = !p.setupMarks.length;
  const list = $('entries');
  list.replaceChildren();
  for (const e of p.entries) {
    const li = item([e.call, e.checkpoint ? ' [checkpoint]' : '',
      ` undo ${verdict(e.undo)}, redo ${verdict(e.redo)}`], e.marks, e.step === p.step ? 'now' : e.applied ? '' : 'undone');
    // The list's own number is the step's (the text does not repeat it).
    li.value = e.step;
    li.dataset.step = String(e.step);
    li.addEventListener('click', () => send({ type: 'seek', step: e.step }));
    list.append(li);
  }
}

function verdict(check) {
  if (check === null || check === undefined) return 'not run yet';
  return check === true ? 'verified' : `NOT verified: ${check}`;
}

function item(parts, marks, className) {
  const li = document.createElement('li');
  li.className = className;
  li.textContent = parts.join('');
  li.append(...marks.map(markLine));
  return li;
}

/// A failure marked at a history position (a scenario's failed check).
function markLine(mark) {
  return Object.assign(document.createElement('div'), { className: 'mark', textContent: `✗ ${mark}` });
}

/// The legal calls as buttons named as one types them to `play`; a node clicked on the board keeps those
/// that name it (the library's rule, SceneNode.isNamed: the server lists each call's nodes).
export function showLegal(p = position) {
  const box = $('legal');
  box.replaceChildren();
  const calls = narrowTo ? p.legal.filter((c) => c.nodes.includes(narrowTo)) : p.legal;
  $('narrow').textContent = narrowTo ? `naming ${narrowTo} (click it again for all)` : '';
  if (p.legalError) box.textContent = `legal fails: ${p.legalError}`;
  else if (!calls.length && narrowTo) {
    // The rule is the library's (SceneNode.isNamed); say how a view names a node, as docs/lua-api.md does.
    box.textContent = `no legal call names ${narrowTo}: a call names a node by its id, the part after its first ':', `
      + 'its aliases, or the params its names give (names = { column = 3 })';
  } else if (!calls.length) box.textContent = 'no legal calls';
  for (const call of calls) {
    const button = document.createElement('button');
    button.textContent = call.label;
    button.addEventListener('click', () => send({ type: 'perform', call: call.label }));
    box.append(button);
  }
}

export function narrow(nodeID) {
  narrowTo = narrowTo === nodeID ? null : nodeID;
  showLegal();
}

function showChanges(changes) {
  $('changes').replaceChildren(...changes.map((c) => {
    const li = document.createElement('li');
    li.textContent = `${c.path}: ${c.before} → ${c.after}`;
    return li;
  }));
}

/// The state as a tree; the slots this step changed are highlighted with their value before.
function showState(state, changes) {
  if (state === null) return $('state').replaceChildren('the state cannot be shown');
  const changed = new Map(changes.map((c) => [c.path, c]));
  const tree = (value, path) => {
    if (value === null || typeof value !== 'object') return document.createTextNode(leafText(value));
    const ul = document.createElement('ul');
    // A Lua list arrives as a JSON array: its keys are shown 1-based, as the rules and state paths name them.
    const entries = Array.isArray(value) ? value.map((child, i) => [String(i + 1), child]) : Object.entries(value);
    for (const [key, child] of entries) {
      const slot = path ? `${path}.${key}` : key;
      const li = document.createElement('li');
      li.dataset.path = slot;
      const name = document.createElement('span');
      name.className = 'key';
      name.textContent = `${key}: `;
      li.append(name, tree(child, slot));
      if (child === null || typeof child !== 'object') li.dataset.value = leafText(child);
      const change = changed.get(slot);
      if (change) {
        li.classList.add('changed-value');
        li.append(` (was ${change.before})`);
      }
      ul.append(li);
    }
    return ul;
  };
  $('state').replaceChildren(tree(state, ''));
}

function showFinding(finding) {
  const box = $('finding');
  box.hidden = !finding;
  if (!finding) return;
  const lines = [`Finding: ${finding.property}`, ...finding.message];
  if (finding.blame) lines.push(`Blame: ${finding.blame}`);
  box.replaceChildren(...lines.map((text) => Object.assign(document.createElement('p'), { textContent: text })));
  const slots = document.createElement('ul');
  slots.setAttribute('aria-label', 'Slots');
  slots.replaceChildren(...finding.slots.map((s) => Object.assign(document.createElement('li'), { textContent: s })));
  box.append(slots);
  if (finding.location) {
    box.append(Object.assign(document.createElement('p'), { textContent: `at ${finding.location}`, className: 'location' }));
    const pre = document.createElement('pre');
    pre.setAttribute('aria-label', 'Source');
    for (const line of finding.source) {
      const span = document.createElement('div');
      span.textContent = `${String(line.number).padStart(4)}  ${line.text}`;
      if (line.number === finding.line) span.className = 'blamed';
      pre.append(span);
    }
    box.append(pre);
  }
}

function showReload(reload) {
  const box = $('reload');
  box.hidden = !reload;
  if (!reload) return;
  box.textContent = `pack reloaded (${reload.count}): ${reload.message}`;
  box.dataset.count = String(reload.count);
  if (reload.step !== null) box.dataset.step = String(reload.step);
}

function wire() {
  $('undo').addEventListener('click', () => send({ type: 'undo' }));
  $('redo').addEventListener('click', () => send({ type: 'redo' }));
  $('undo-turn').addEventListener('click', () => send({ type: 'undoTurn' }));
  $('seat').addEventListener('change', (e) => send({ type: 'seat', seat: e.target.value || null }));
  $('history').addEventListener('change', (e) => send({ type: 'seek', step: Number(e.target.value) }));
  $('call-form').addEventListener('submit', (e) => {
    e.preventDefault();
    if ($('call').value.trim()) send({ type: 'perform', call: $('call').value.trim() });
  });
  $('save-form').addEventListener('submit', (e) => {
    e.preventDefault();
    send({ type: 'save', path: $('save-path').value });
  });
}

wire();
connect();
