// The studio's level list (docs/levels.md): a level file opened with `rulebench studio levels.yaml`
// shows its levels in #levels. Picking one asks the server to set it up (the engine restarts the game
// with the level's options); "Solution step" asks it to perform the next call of the level's stored
// solution, a step of the history like any other (the slider and Undo treat it so); "Play solution"
// asks for one step after another until the solution is played. The page keeps no game state: what
// it shows comes from each position's `levels` member and the list the server sends once.

import { onPosition, onMessage, send } from './studio.js';

const $ = (id) => document.getElementById(id);
let asked = false;       // the list is asked for once, when the first position says a level file is open
let playing = false;     // "Play solution": another step is asked for after each position, until the end

function build(box) {
  const picker = Object.assign(document.createElement('select'), { id: 'level-pick' });
  picker.setAttribute('aria-label', 'Level');
  picker.addEventListener('change', () => {
    playing = false;
    send({ type: 'level', level: Number(picker.value) });
  });
  const step = Object.assign(document.createElement('button'), { id: 'solution-step', textContent: 'Solution step' });
  step.addEventListener('click', () => send({ type: 'solutionStep' }));
  const play = Object.assign(document.createElement('button'), { id: 'solution-play', textContent: 'Play solution' });
  play.addEventListener('click', () => {
    playing = true;
    send({ type: 'solutionStep' });
  });
  const title = Object.assign(document.createElement('h2'), { id: 'levels-title' });
  const row = Object.assign(document.createElement('div'), { className: 'row' });
  const label = document.createElement('label');
  label.append('Level ', picker);
  row.append(label, step, play);
  const line = Object.assign(document.createElement('p'), { id: 'solution' });
  line.setAttribute('aria-label', 'Solution');
  box.append(title, row, line);
}

/// The list the server sent: one option per level, its number the value the server is sent back.
function fill(message) {
  $('level-pick').replaceChildren(...message.levels.map((level, index) => Object.assign(document.createElement('option'), {
    value: String(index + 1),
    textContent: `${level.name} (${level.moves === null ? 'no solution stored' : `${level.moves} moves, ${level.found}`})`,
  })));
  if (window.studioPosition?.levels) $('level-pick').value = String(window.studioPosition.levels.level);
}

function show(levels) {
  const box = $('levels');
  box.hidden = !levels;
  if (!levels) return;
  if (!box.childElementCount) build(box);
  if (!asked) {
    asked = true;
    send({ type: 'levelList' });
  }
  $('levels-title').textContent = `Levels of ${levels.file} (${levels.count}), goal ${levels.goal}`;
  if ($('level-pick').options.length) $('level-pick').value = String(levels.level);
  const goal = levels.goalHolds === null ? '' : `; goal ${levels.goal} ${levels.goalHolds ? 'holds' : 'does not hold yet'}`;
  let solution;
  if (levels.moves === null) solution = 'no stored solution';
  else if (levels.played === null) solution = `the history has left the stored solution (${levels.moves} calls): undo to follow it`;
  else solution = `stored solution: ${levels.played} of ${levels.moves} calls played`;
  $('solution').textContent = `level ${levels.name}: ${solution}${goal}`;
  box.dataset.level = String(levels.level);
  box.dataset.played = levels.played === null ? '' : String(levels.played);
  box.dataset.goalHolds = String(levels.goalHolds);
  const more = levels.played !== null && levels.moves !== null && levels.played < levels.moves;
  $('solution-step').disabled = !more;
  $('solution-play').disabled = !more;
  if (playing && more) send({ type: 'solutionStep' });
  else playing = false;
}

onPosition((p) => show(p.levels));
onMessage('levels', fill);
onMessage('error', () => { playing = false; });
