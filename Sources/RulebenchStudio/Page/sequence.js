// The story-sequence overlay (docs/sequences.md): plays, above the board, the sequences the
// server says a step started (`position.story`: resolved texts, pack images, positions,
// animations, choices). It steps on a click or a key (Enter, Space, →), closes on Escape or
// after the last step, and a choice performs its call like any legal call (so Undo takes it
// back). It only shows what the server resolved: it never changes the game itself.
// `?sequences=off` in the address turns it off (the browser tests of other things set it).
import { onPosition, send } from './studio.js';

const enabled = new URLSearchParams(location.search).get('sequences') !== 'off';
let played = 0;         // the last story serial played: each plays once
let queue = [];         // the sequences still to play, in order
let at = 0;             // the step shown of queue[0]

function overlay() {
  let box = document.getElementById('sequence');
  if (box) return box;
  box = Object.assign(document.createElement('div'), { id: 'sequence', hidden: true });
  box.setAttribute('role', 'dialog');
  box.setAttribute('aria-label', 'Sequence');
  box.addEventListener('click', (event) => { if (!event.target.closest('button')) next(); });
  document.body.append(box);
  return box;
}

function show() {
  const box = overlay();
  const sequence = queue[0];
  if (!sequence) {
    box.hidden = true;
    box.replaceChildren();
    delete document.body.dataset.sequence;
    return;
  }
  const step = sequence.steps[at];
  box.hidden = false;
  box.dataset.name = sequence.name;
  box.dataset.step = String(at + 1);
  document.body.dataset.sequence = `${sequence.name}:${at + 1}`;
  const stage = Object.assign(document.createElement('div'), { className: 'sequence-stage' });
  stage.append(...step.events.map(event));
  const controls = Object.assign(document.createElement('div'), { className: 'sequence-controls' });
  const label = Object.assign(document.createElement('span'), { textContent: `${sequence.name}: step ${at + 1} of ${sequence.steps.length}` });
  const onward = Object.assign(document.createElement('button'), { textContent: at + 1 < sequence.steps.length ? 'Next' : 'Close' });
  onward.addEventListener('click', next);
  const skip = Object.assign(document.createElement('button'), { textContent: 'Skip' });
  skip.addEventListener('click', close);
  controls.append(label, onward, skip);
  box.replaceChildren(stage, controls);
  onward.focus();
}

function event(e) {
  const figure = document.createElement('figure');
  figure.className = 'sequence-event';
  Object.assign(figure.dataset, { side: e.side, position: e.position, animation: e.animation });
  if (e.image && e.position !== 'off') {
    const image = Object.assign(document.createElement('img'), { src: `/pack/${e.image.split('/').map(encodeURIComponent).join('/')}`, alt: '' });
    figure.append(image);
  }
  figure.append(Object.assign(document.createElement('p'), { className: 'sequence-text', textContent: e.text }));
  if (e.choices.length) {
    const choices = Object.assign(document.createElement('div'), { className: 'sequence-choices' });
    for (const choice of e.choices) {
      const button = Object.assign(document.createElement('button'), { textContent: choice.label });
      button.dataset.call = choice.call;
      button.addEventListener('click', () => { close(); send({ type: 'perform', call: choice.call }); });
      choices.append(button);
    }
    figure.append(choices);
  }
  return figure;
}

function next() {
  if (!queue.length) return;
  at += 1;
  if (at >= queue[0].steps.length) {
    queue.shift();
    at = 0;
  }
  show();
}

function close() {
  queue = [];
  at = 0;
  show();
}

document.addEventListener('keydown', (e) => {
  if (!queue.length) return;
  if (e.key === 'Escape') close();
  else if (e.key === 'Enter' || e.key === ' ' || e.key === 'ArrowRight') {
    if (e.target.closest && e.target.closest('.sequence-choices')) return;
    e.preventDefault();
    next();
  }
});

if (enabled) {
  const style = Object.assign(document.createElement('link'), { rel: 'stylesheet', href: '/sequence.css' });
  document.head.append(style);
  onPosition((position) => {
    const story = position.story;
    if (!story || story.serial <= played) return;
    played = story.serial;
    queue = [...story.sequences];
    at = 0;
    show();
  });
}
