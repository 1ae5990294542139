// The lobby: the server's JSON API (docs/multiplayer.md, "The lobby") as the page uses it, and
// where a seat's credential is kept. A credential goes to this tab's session storage only: the
// address the page shows (and a player may share) names the match and the seat, never the
// credential, and another tab or browser must join a seat of its own.

const $ = (id) => document.getElementById(id);

/// The lobby API's answer to `path`, or an Error with the server's words.
export async function api(path, body) {
  const init = body === undefined ? {} : { method: 'POST', headers: { 'Content-Type': 'application/json' }, body: JSON.stringify(body) };
  const response = await fetch(path, init);
  const value = await response.json().catch(() => ({ error: `${response.status} ${response.statusText}` }));
  if (!response.ok) throw new Error(value.error || `${response.status}`);
  return value;
}

const key = (match, seat) => `rulebench.credential.${match}.${seat}`;

/// The credential this tab holds for `seat` of `match`, or null.
export function credential(match, seat) { return sessionStorage.getItem(key(match, seat)); }

/// Joins `seat` of `match`, keeps the credential in this tab, and opens the seat's board.
async function join(match, seat) {
  const answer = await api(`/api/matches/${match}/join`, { seat });
  sessionStorage.setItem(key(match, seat), answer.credential);
  location.hash = `match=${match}&seat=${encodeURIComponent(seat)}`;
}

function button(text, action) {
  const b = document.createElement('button');
  b.textContent = text;
  b.addEventListener('click', () => action().catch((e) => say(e.message, true)));
  return b;
}

export function say(text, isError = false) {
  $('status').textContent = text;
  $('status').className = isError ? 'error' : '';
}

/// The match list: each match's pack, version and seats, a Join button per free seat, Watch.
export async function showLobby() {
  const { matches } = await api('/api/matches');
  $('no-matches').hidden = matches.length > 0;
  $('matches').tBodies[0].replaceChildren(...matches.map((m) => {
    const row = document.createElement('tr');
    row.dataset.match = String(m.id);
    const seats = m.seats.map((s) => `${s.seat}${s.taken ? ' (taken)' : ''}${s.connected ? ' ●' : ''}`).join(', ');
    const cells = [String(m.id), m.packName, String(m.version), seats].map((text) => Object.assign(document.createElement('td'), { textContent: text }));
    const actions = document.createElement('td');
    for (const s of m.seats) {
      if (credential(m.id, s.seat)) actions.append(button(`Play ${s.seat}`, async () => { location.hash = `match=${m.id}&seat=${encodeURIComponent(s.seat)}`; }));
      else if (!s.taken) actions.append(button(`Join ${s.seat}`, () => join(m.id, s.seat)));
    }
    actions.append(button('Watch', async () => { location.hash = `match=${m.id}&watch`; }));
    row.append(...cells, actions);
    return row;
  }));
}

async function create(event) {
  event.preventDefault();
  const body = { pack: $('create-pack').value.trim(), takebacks: $('create-takebacks').value };
  const options = $('create-options').value.trim();
  if (options) body.options = JSON.parse(options);
  const seats = $('create-seats').value.split(',').map((s) => s.trim()).filter(Boolean);
  if (seats.length) body.seats = seats;
  const seed = $('create-seed').value.trim();
  if (seed) body.seed = Number(seed);
  const match = await api('/api/matches', body);
  say(`match ${match.id} of ${match.packName} created: join a seat`);
  await showLobby();
}

$('create').addEventListener('submit', (e) => create(e).catch((error) => say(error.message, true)));
