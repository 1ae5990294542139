// Rulebench Studio's bot seats: for each seat of a seated pack, who plays it (the page, or a bot:
// random, greedy, alphabeta[:DEPTH[:STATES]] or mcts[:PLAYOUTS]; docs/bots.md) and the bots' seed.
// The server owns the bots (a "bot" message gives a seat one); this module only shows and sends
// the choice. Its one hook in the page is the element #bots.

import { onPosition, send } from './studio.js';

const KINDS = ['', 'random', 'greedy', 'alphabeta', 'mcts'];
let shownSeats = '';

/// A bot spec as the server writes it ("alphabeta:9") split into the picker's kind and parameter.
function split(spec) {
  const at = spec.indexOf(':');
  return at < 0 ? [spec, ''] : [spec.slice(0, at), spec.slice(at + 1)];
}

function choose(seat) {
  const kind = document.getElementById(`bot-kind-${seat}`).value;
  const parameter = document.getElementById(`bot-parameter-${seat}`).value.trim();
  const seed = Number(document.getElementById('bot-seed').value || '0');
  send({ type: 'bot', seat, bot: kind ? (parameter ? `${kind}:${parameter}` : kind) : null, seed });
}

/// One row per seat: who plays it, the bot's parameter (depth, playouts), and the seed shared by all.
function build(box, seats) {
  const rows = seats.map((seat) => {
    const row = Object.assign(document.createElement('div'), { className: 'row' });
    const kind = Object.assign(document.createElement('select'), { id: `bot-kind-${seat}` });
    kind.setAttribute('aria-label', `Bot for ${seat}`);
    kind.replaceChildren(...KINDS.map((k) => Object.assign(document.createElement('option'), { value: k, textContent: k || 'played here' })));
    const parameter = Object.assign(document.createElement('input'), { id: `bot-parameter-${seat}`, size: 8, placeholder: 'depth…' });
    parameter.setAttribute('aria-label', `Bot parameter for ${seat}`);
    const apply = Object.assign(document.createElement('button'), { textContent: 'Set' });
    apply.setAttribute('aria-label', `Set bot for ${seat}`);
    apply.addEventListener('click', () => choose(seat));
    kind.addEventListener('change', () => choose(seat));
    row.append(`${seat}: `, kind, parameter, apply);
    return row;
  });
  const seed = Object.assign(document.createElement('input'), { id: 'bot-seed', type: 'number', min: '0', value: '0', size: 6 });
  seed.setAttribute('aria-label', 'Bot seed');
  const seedRow = Object.assign(document.createElement('label'), { className: 'row' });
  seedRow.append('Seed ', seed);
  box.replaceChildren(Object.assign(document.createElement('h2'), { textContent: 'Bots' }), ...rows, seedRow);
}

function show(p) {
  const box = document.getElementById('bots');
  if (!box) return;
  box.hidden = !p.seats.length;
  if (!p.seats.length) return;   // a pack without seats has no seat to give a bot
  if (p.seats.join(' ') !== shownSeats) {
    shownSeats = p.seats.join(' ');
    build(box, p.seats);
  }
  for (const seat of p.seats) {
    const [kind, parameter] = split(p.bots?.[seat] ?? '');
    const picker = document.getElementById(`bot-kind-${seat}`);
    if (document.activeElement !== picker) picker.value = kind;
    const input = document.getElementById(`bot-parameter-${seat}`);
    if (document.activeElement !== input) input.value = parameter;
  }
  const seed = document.getElementById('bot-seed');
  if (p.botSeed !== undefined && document.activeElement !== seed) seed.value = p.botSeed;
  box.dataset.bots = JSON.stringify(p.bots ?? {});
}

onPosition(show);
