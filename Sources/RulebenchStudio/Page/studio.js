// Rulebench Studio's page logic: one WebSocket to the server, which owns the game.
// Every button sends a request; every change comes back as a "position" message that
// is drawn whole (so several tabs always agree). Nothing here replays or judges the game.

const $ = (id) => document.getElementById(id);
let socket;
let nextID = 1;
let position = null;
let narrowTo = null;      // the node id a click on the board narrowed the legal calls to
let moved = '';           // the last position's step, length and hash: a change means the game moved
const listeners = [];     // other modules (the board, the stage, the moves) hear each position
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

export { say };

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

/// True when `next` is another position of the game than the last one shown (a call performed, an undo,
/// a redo, a seek, a reload): what was said or chosen about the old one (a refused call's error, a node's
/// narrowing of the calls) no longer holds and is cleared.
function gameMoved(next) {
  const key = `${next.step}/${next.count}/${next.hash}/${next.reload ? next.reload.count : 0}`;
  const changed = key !== moved;
  moved = key;
  return changed;
}

function show(next) {
  const cleared = gameMoved(next) && position;
  if (cleared) {
    narrowTo = null;
    say('');
  }
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
  if (cleared) for (const listener of selectionListeners) listener(null);
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
  $('undo-turn').disabled = p.step === 0;
  const entry = p.step > 0 ? p.entries[p.step - 1] : null;
  $('verified').textContent = entry ? `step ${p.step} (${entry.call}): ${checks(entry) || 'done; its undo is checked when you step back'}`
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
  const differs = p.reload && p.reload.step !== null ? p.reload.step : null;
  for (const e of p.entries) {
    const li = item(e.call + (e.checkpoint ? ' [checkpoint]' : ''), checks(e), e.marks, e.step === p.step ? 'now' : e.applied ? '' : 'undone');
    // The list's own number is the step's (the text does not repeat it).
    li.value = e.step;
    li.dataset.step = String(e.step);
    li.dataset.hash = e.hash;
    if (e.step === differs) {
      li.classList.add('differs');
      li.append(markLine(`${p.reload.message} (the first step the edit changed)`));
    }
    li.addEventListener('click', () => send({ type: 'seek', step: e.step }));
    list.append(li);
  }
  // Steps of the history before an edit that no longer replay: kept, so that when the file is fixed
  // they replay again (the server keeps their calls); shown after the steps that replayed.
  for (const pending of p.pending || []) {
    const li = item(pending.call, '', [], 'pending');
    li.value = pending.step;
    li.dataset.step = String(pending.step);
    li.dataset.pending = 'true';
    li.append(markLine(pending.problem));
    if (pending.step === differs) li.classList.add('fails');
    list.append(li);
  }
}

/// What was proved of a step's undo and redo, in words ("undo checked ✓"); '' when neither ran yet.
export function checks(entry) {
  const said = [];
  for (const [name, check] of [['undo', entry.undo], ['redo', entry.redo]]) {
    if (check === true) said.push(`${name} checked ✓`);
    else if (typeof check === 'string') said.push(`${name} NOT verified: ${check}`);
  }
  return said.join(', ');
}

function item(text, checked, marks, className) {
  const li = document.createElement('li');
  li.className = className;
  li.textContent = text;
  if (checked) li.append(' ', Object.assign(document.createElement('span'), { className: 'checks', textContent: checked }));
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

/// Selects the node `nodeID` (the calls listed are those naming it), or the whole list again when it
/// was selected already; the board's moves (moves.js) hear it through onSelection.
export function narrow(nodeID) {
  select(narrowTo === nodeID ? null : nodeID);
}

export function select(nodeID) {
  narrowTo = nodeID;
  showLegal();
  for (const listener of selectionListeners) listener(narrowTo);
}

export function selected() { return narrowTo; }

const selectionListeners = [];
export function onSelection(listener) { selectionListeners.push(listener); }

function showChanges(changes) {
  $('changes').replaceChildren(...changes.map((c) => {
    const li = document.createElement('li');
    li.textContent = `${c.path}: ${c.before} → ${c.after}`;
    return li;
  }));
}

/// The state as a tree that folds: a table's line folds and unfolds it (a choice kept by slot path across
/// positions), and the tree opens on the slots this step changed (highlighted with their value before);
/// the rest starts folded below the top level when the state is large. The search box keeps the slots
/// whose path or value holds its words (and the tables above them), and hides the rest.
const folds = new Map();          // slot path -> folded (true) or open (false), as the user left it
const LARGE_STATE = 60;           // leaves beyond which tables not on a changed path start folded

function showState(state, changes) {
  if (state === null) return $('state').replaceChildren('the state cannot be shown');
  const changed = new Map(changes.map((c) => [c.path, c]));
  const onChangedPath = (slot) => changes.some((c) => c.path === slot || c.path.startsWith(`${slot}.`));
  const large = countLeaves(state) > LARGE_STATE;
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
      if (child !== null && typeof child === 'object') {
        const fold = Object.assign(document.createElement('span'), { className: 'fold', role: 'button', tabIndex: 0 });
        const folded = folds.has(slot) ? folds.get(slot) : (large && !onChangedPath(slot));
        li.classList.toggle('folded', folded && !onChangedPath(slot));
        fold.textContent = li.classList.contains('folded') ? '▸' : '▾';
        fold.setAttribute('aria-label', `fold ${slot}`);
        fold.addEventListener('click', () => {
          const now = !li.classList.contains('folded');
          li.classList.toggle('folded', now);
          fold.textContent = now ? '▸' : '▾';
          folds.set(slot, now);
        });
        li.append(fold);
      }
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
  searchState();
}

function countLeaves(value) {
  if (value === null || typeof value !== 'object') return 1;
  let n = 0;
  for (const child of Object.values(value)) n += countLeaves(child);
  return n;
}

/// Keeps the slots whose path or value holds every word typed in the search box, the tables above
/// them shown and unfolded; an empty search shows the tree as folded.
function searchState() {
  const words = $('state-search').value.toLowerCase().split(/\s+/).filter(Boolean);
  const items = [...document.querySelectorAll('#state li')];
  for (const li of items) li.classList.remove('hit', 'miss', 'search-open');
  if (!words.length) return;
  const hits = new Set();
  for (const li of items) {
    const text = `${li.dataset.path} ${li.dataset.value ?? ''}`.toLowerCase();
    if (!words.every((w) => text.includes(w))) continue;
    li.classList.add('hit');
    for (let up = li; up && up.matches('#state li'); up = up.parentElement.closest('#state li')) hits.add(up);
    for (const below of li.querySelectorAll('li')) hits.add(below);
  }
  for (const li of items) {
    if (!hits.has(li)) li.classList.add('miss');
    else if (li.classList.contains('folded') && [...li.querySelectorAll('li.hit')].length) {
      li.classList.remove('folded');
      li.querySelector('.fold').textContent = '▾';
    }
  }
}

/// The finding, the panel at the top of the dock, opened with the blamed source line in view (scrolled
/// to, the first time this finding is shown) and highlighted.
let findingShown = '';

function showFinding(finding) {
  const box = $('finding');
  box.hidden = !finding;
  $('panel-finding').hidden = !finding;
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
      // A line of the blamed function that writes a slot the finding lists: the likely culprit.
      if ((finding.writes || []).includes(line.number)) {
        span.classList.add('writes');
        span.title = 'writes a slot that differs';
      }
      pre.append(span);
    }
    box.append(pre);
  }
  const key = `${finding.property}|${finding.location}`;
  const shown = box.querySelector('.writes') || box.querySelector('.blamed');
  if (shown && key !== findingShown) {
    findingShown = key;
    $('panel-finding').open = true;
    // After layout (the board draws in the same frame): the line in the middle of its box, the box in view.
    requestAnimationFrame(() => shown.scrollIntoView({ block: 'center', inline: 'nearest' }));
  }
}

function showReload(reload) {
  const box = $('reload');
  box.hidden = !reload;
  if (!reload) return;
  box.textContent = `pack reloaded (${reload.count}): ${reload.message}`;
  box.dataset.count = String(reload.count);
  if (reload.step !== null) box.dataset.step = String(reload.step);
  else delete box.dataset.step;
}

function wire() {
  $('undo').addEventListener('click', () => send({ type: 'undo' }));
  $('redo').addEventListener('click', () => send({ type: 'redo' }));
  $('undo-turn').addEventListener('click', () => send({ type: 'undoTurn' }));
  $('state-search').addEventListener('input', searchState);
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
