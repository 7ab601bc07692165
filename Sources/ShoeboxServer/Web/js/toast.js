// Short notes at the bottom of the page that go by themselves (a deletion, with Undo): a status
// region that screen readers announce; one note at a time, the newest replacing the last. While a
// modal dialog is open (the viewer) the note is shown in it: the page behind is covered and inert.

import { el, button } from './util.js';

let region = null;
let timer = null;

function ensureRegion() {
  region ??= el('div', { class: 'toasts', role: 'status', 'aria-live': 'polite' });
  const host = [...document.querySelectorAll('dialog:modal')].pop() ?? document.body;
  if (region.parentElement !== host) host.append(region);
  return region;
}

// Shows `message` for `seconds`, with a button `action.label` that runs `action.run` and closes
// the note.
export function showToast(message, { action = null, seconds = 8 } = {}) {
  const area = ensureRegion();
  clearTimeout(timer);
  const close = () => { clearTimeout(timer); area.replaceChildren(); };
  const note = el('div', { class: 'toast' }, el('span', {}, message));
  if (action) {
    note.append(button(action.label, async () => { close(); await action.run(); }, { className: 'button toast-action' }));
  }
  note.append(button('×', close, { className: 'button toast-close', ariaLabel: 'Dismiss' }));
  area.replaceChildren(note);
  timer = setTimeout(close, seconds * 1000);
}
