// The match page's play: one seat's (or a spectator's) board, kept in step with the server over
// one WebSocket (docs/multiplayer.md, "The WebSocket protocol" and "The match page"). The server
// owns the match: the page sends calls and takebacks, and shows what comes back: the steps in
// version order, the calls the seat may make, refusals with the pack's reason, the board as the
// seat may see it (the server draws it, redacted), and who is at the table. When the socket
// drops, the page says so, connects again by itself, and asks for the steps after the version it
// holds; a call that got no answer is sent again with the same client call id, so it is performed once.

import { drawScene, between } from './scene.js';
import { api, credential, say, showLobby } from './lobby.js';

const $ = (id) => document.getElementById(id);
const GLIDE_SECONDS = 0.4;       // a peer's step: the board glides from the last scene to the new one
const RETRY_SECONDS = [0.25, 0.5, 1, 2, 4];
const PRESENCE_SECONDS = 2;

let room = null;   // { match, seat (null: watching), socket, version, viewHash, legal, scene, pending, retries, timers }
const callPrefix = Array.from(crypto.getRandomValues(new Uint8Array(4)), (b) => b.toString(16).padStart(2, '0')).join('');
let callCount = 0;

// MARK: Opening

function route() {
  leave();
  const params = new URLSearchParams(location.hash.slice(1));
  const match = Number(params.get('match'));
  $('lobby').hidden = !!match;
  $('match').hidden = !match;
  if (!match) {
    $('title').textContent = '';
    setConnection('none', '');
    showLobby().catch((e) => say(e.message, true));
    return;
  }
  const seat = params.has('seat') ? params.get('seat') : null;
  if (seat !== null && !credential(match, seat)) {
    say(`this tab holds no credential for seat ${seat} of match ${match}: join a free seat from the lobby, or watch`, true);
    $('match').hidden = true;
    return;
  }
  enter(match, seat);
}

function enter(match, seat) {
  room = { match, seat, socket: null, version: 0, viewHash: null, legal: [], scene: null, pending: null, retries: 0, timers: [] };
  $('title').textContent = seat ? `match ${match}, seat ${seat}` : `match ${match}, watching`;
  document.title = `Rulebench: ${$('title').textContent}`;
  $('takeback').disabled = !seat;
  $('consent').disabled = !seat;
  $('call-form').hidden = !seat;
  $('steps').replaceChildren();
  say('');
  showVersion();
  connect();
  presence();
  room.timers.push(setInterval(presence, PRESENCE_SECONDS * 1000));
}

function leave() {
  if (!room) return;
  for (const timer of room.timers) clearInterval(timer);
  clearTimeout(room.retry);
  const socket = room.socket;
  room = null;
  if (socket) socket.close();
}

// MARK: The socket

function setConnection(state, text) {
  $('connection').dataset.state = state;
  $('connection').textContent = text;
  document.body.dataset.connection = state;
}

function connect() {
  const current = room;
  const query = current.seat === null ? 'watch=1'
    : `seat=${encodeURIComponent(current.seat)}&credential=${encodeURIComponent(credential(current.match, current.seat))}`;
  const scheme = location.protocol === 'https:' ? 'wss' : 'ws';
  const socket = new WebSocket(`${scheme}://${location.host}/api/matches/${current.match}/socket?${query}`);
  current.socket = socket;
  setConnection(current.retries ? 'reconnecting' : 'connecting', current.retries ? 'reconnecting…' : 'connecting…');
  socket.addEventListener('message', (event) => { if (room === current) receive(JSON.parse(event.data)); });
  socket.addEventListener('close', (event) => { if (room === current && current.socket === socket) dropped(event); });
}

function dropped(event) {
  room.socket = null;
  if (event.code === 4403 || event.code === 4404) {
    setConnection('closed', `closed: ${event.reason}`);
    return;
  }
  const wait = RETRY_SECONDS[Math.min(room.retries, RETRY_SECONDS.length - 1)];
  room.retries += 1;
  setConnection('reconnecting', `connection lost: reconnecting (try ${room.retries})…`);
  room.retry = setTimeout(connect, wait * 1000);
}

function send(message) {
  if (room && room.socket && room.socket.readyState === WebSocket.OPEN) room.socket.send(JSON.stringify(message));
}

/// A call or takeback: sent now (or when the socket is back), kept until it is answered.
function request(message) {
  if (room.pending) { say('waiting for the answer to the last call', true); return; }
  room.pending = { ...message, id: `${room.seat}-${callPrefix}-${++callCount}`, version: room.version };
  send(room.pending);
}

// MARK: What the server sends

function receive(message) {
  switch (message.type) {
    case 'welcome':
      room.retries = 0;
      setConnection('connected', 'connected');
      sync();
      return;
    case 'step': return stepArrived(message.step, message.legal);
    case 'view': return wholeView(message);
    case 'synced':
      showLegal(message.legal);
      if (message.version < message.current) { sync(); return; }
      // Out of step (this page's view hash is not the server's for it): ask for the whole view.
      if (message.viewHash && room.viewHash && message.viewHash !== room.viewHash) { room.viewHash = null; send({ type: 'sync', since: room.version, viewHash: '0' }); return; }
      if (message.viewHash) room.viewHash = message.viewHash;
      if (room.pending) send(room.pending);   // asked before the drop: answered again if it was performed
      return redraw(false);
    case 'accepted':
      room.pending = null;
      if (message.again) { sync(); return; }
      return stepArrived(message.step, message.legal);
    case 'stale':
      room.pending = null;
      say(`the match moved on (version ${message.current}): look again and choose`, true);
      sync();
      return;
    case 'refused':
      room.pending = null;
      say(`refused (${message.kind}): ${message.reason}`, true);
      $('status').dataset.kind = message.kind;
      return;
    case 'consent': say(`seat ${message.seat} consents to a takeback at version ${message.version}`); return;
    case 'error': say(`error: ${message.message}`, true); return;
    default: return;
  }
}

/// Asks for what this page missed since the version (and view hash) it holds.
function sync() {
  const message = { type: 'sync', since: room.version };
  if (room.viewHash) message.viewHash = room.viewHash;
  send(message);
}

/// The server's whole view for this page (it was too far behind, or out of step): the page
/// jumps to its version, and says so in the steps list, whose missed steps it does not have.
function wholeView(message) {
  if (message.version !== room.version) {
    const li = document.createElement('li');
    li.value = message.version;
    li.className = 'caught-up';
    li.textContent = `caught up from version ${room.version} to ${message.version} (the board as it is now)`;
    $('steps').append(li);
  }
  room.version = message.version;
  room.viewHash = message.viewHash;
  showVersion();
  showLegal(message.legal);
}

function stepArrived(step, legal) {
  if (step.version <= room.version) return;          // already shown (a sync after a resend)
  if (step.version > room.version + 1) { sync(); return; }
  room.version = step.version;
  if (step.viewHash) room.viewHash = step.viewHash;
  showVersion();
  $('steps').append(stepLine(step));
  $('steps').lastElementChild.scrollIntoView({ block: 'nearest' });
  if (legal) showLegal(legal);
  say(step.takeback ? `${step.seat} took back version ${step.takeback}` : `${step.seat}: ${label(step.call)}`);
  redraw(true);
}

function stepLine(step) {
  const li = document.createElement('li');
  li.value = step.version;
  li.dataset.version = String(step.version);
  li.className = step.takeback ? 'takeback' : '';
  li.textContent = step.takeback ? `${step.seat} took back ${step.takeback}` : `${step.seat}: ${label(step.call)}`;
  return li;
}

function showVersion() {
  $('version').textContent = String(room.version);
  document.body.dataset.version = String(room.version);
}

// MARK: Calls

/// A call as one types it: `name key=value …` (params sorted).
function label(call) {
  const params = Object.keys(call.params || {}).sort().map((k) => `${k}=${typeof call.params[k] === 'string' ? call.params[k] : JSON.stringify(call.params[k])}`);
  return [call.name, ...params].join(' ');
}

/// A typed call read back: `move player=p1 to=b2` (whole numbers and true/false as such, the rest as text).
function parse(text) {
  const [name, ...pairs] = text.trim().split(/\s+/);
  const params = {};
  for (const pair of pairs) {
    const at = pair.indexOf('=');
    if (at < 1) throw new Error(`${pair} is not key=value`);
    const value = pair.slice(at + 1);
    params[pair.slice(0, at)] = /^-?\d+$/.test(value) ? Number(value) : value === 'true' ? true : value === 'false' ? false : value;
  }
  return { name, params };
}

function showLegal(legal) {
  room.legal = legal || [];
  const box = $('legal');
  box.replaceChildren(...room.legal.map((call) => {
    const b = document.createElement('button');
    b.textContent = label(call);
    b.addEventListener('click', () => request({ type: 'call', call }));
    return b;
  }));
  if (!room.legal.length) box.textContent = room.seat ? 'none now (not your turn, or the match is over)' : 'watching: no calls';
  document.body.dataset.legal = String(room.legal.length);
}

// MARK: The board

/// Asks the server for the board as this seat may see it, and draws it: gliding from the last
/// scene when a step just arrived.
async function redraw(glide) {
  const current = room;
  const body = current.seat === null ? {} : { seat: current.seat, credential: credential(current.match, current.seat) };
  let answer;
  try { answer = await api(`/api/matches/${current.match}/scene`, body); } catch (e) { say(e.message, true); return; }
  if (room !== current || answer.version < (current.drawnVersion ?? -1)) return;
  current.drawnVersion = answer.version;
  const before = current.scene;
  current.scene = answer.scene;
  const options = { asset: (path) => `/api/matches/${current.match}/pack/${path}` };
  if (!answer.scene) { $('board').textContent = 'this pack has no view: the steps are listed beside'; return; }
  if (!glide || !before) { drawScene($('board'), answer.scene.nodes, answer.scene, options); drawn(answer.version); return; }
  const start = performance.now();
  const frame = () => {
    if (room !== current || current.scene !== answer.scene) return;
    const f = (performance.now() - start) / 1000 / GLIDE_SECONDS;
    drawScene($('board'), between(before.nodes, answer.scene.nodes, f), answer.scene, options);
    if (f < 1) requestAnimationFrame(frame); else drawn(answer.version);
  };
  document.body.dataset.playing = 'true';
  frame();
}

function drawn(version) {
  document.body.dataset.playing = 'false';
  document.body.dataset.drawn = String(version);
}

// MARK: Who is at the table

async function presence() {
  const current = room;
  let listing;
  try { listing = await api('/api/matches'); } catch { return; }
  const match = listing.matches.find((m) => m.id === current.match);
  if (room !== current || !match) return;
  $('presence').replaceChildren(...match.seats.map((s) => {
    const li = document.createElement('li');
    li.dataset.seat = s.seat;
    li.className = [s.connected ? 'connected' : '', s.seat === current.seat ? 'you' : ''].join(' ').trim();
    li.textContent = `${s.seat}${s.seat === current.seat ? ' (you)' : ''}: ${s.connected ? 'connected' : s.taken ? 'away' : 'free'}`;
    return li;
  }));
}

// MARK: Wiring

$('call-form').addEventListener('submit', (e) => {
  e.preventDefault();
  try { request({ type: 'call', call: parse($('call').value) }); } catch (error) { say(error.message, true); }
});
$('takeback').addEventListener('click', () => request({ type: 'takeback' }));
$('consent').addEventListener('click', () => send({ type: 'consent', version: room.version }));
window.addEventListener('hashchange', route);
route();
