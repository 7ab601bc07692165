// What went wrong, where the user sees it: a failed action's message (dismissable, gone after a
// while); while the server cannot be reached, a banner that goes when it is back; and when the
// server is back but no longer knows this browser (it was started with another key), a banner that
// says so in plain words and signs in again. The page's banners are behind a modal dialog, so an
// open dialog marked `data-banners` (the viewer) shows them too, in a banner area of its own.

import { el, button } from './util.js';
import { session } from './api.js';

const pageArea = () => document.querySelector('.banner-area');

// The banner areas of the open dialogs that show banners (made when first needed; the dialog
// keeps it when it draws again).
function dialogAreas() {
  return [...document.querySelectorAll('dialog[open][data-banners]')].map((dialog) => {
    let area = dialog.querySelector(':scope > .banner-area');
    if (!area) {
      area = el('div', { class: 'banner-area dialog-banners', 'aria-live': 'polite' });
      dialog.prepend(area);
    }
    return area;
  });
}

// Where a new message goes: the front dialog's area, else the page's.
const frontArea = () => dialogAreas().pop() ?? pageArea();

// Shows `message` as an alert.
export function showError(message) {
  const banner = el('div', { class: 'banner error', role: 'alert' },
    el('span', {}, message),
    button('Dismiss', () => banner.remove(), { className: 'link-button' }));
  frontArea()?.append(banner);
  setTimeout(() => banner.remove(), 10_000);
}

// The connection: 'connected', 'lost' (the server cannot be reached) or 'signedOut'.
let connection = 'connected';
let pending = 0;

// The connection banner: shown once the connection has been lost for a moment (a stream that
// reconnects at once shows nothing), removed when it is back.
export function connectionLost(lost) {
  clearTimeout(pending);
  if (connection === 'signedOut') return;  // only signing in again ends that
  if (!lost) {
    setConnection('connected');
    return;
  }
  pending = setTimeout(() => setConnection('lost'), 1_500);
}

// The server answered 401: this browser is no longer signed in.
export function signedOut() {
  clearTimeout(pending);
  setConnection('signedOut');
}

export function isSignedOut() { return connection === 'signedOut'; }

function setConnection(state) {
  connection = state;
  showConnection();
}

// Puts the banner the connection calls for in every area (the page's, the open viewer's, and a
// closed one's, which shows again when it opens), and takes the others away.
function showConnection() {
  const areas = new Set([pageArea(), ...dialogAreas(), ...document.querySelectorAll('dialog[data-banners] > .banner-area')]);
  for (const area of areas) {
    if (!area) continue;
    const shown = area.querySelector('.banner.offline, .banner.signed-out');
    const kind = { lost: 'offline', signedOut: 'signed-out' }[connection] ?? null;
    if (shown && shown.classList.contains(kind)) continue;
    shown?.remove();
    if (kind === 'offline') area.prepend(el('div', { class: 'banner offline', role: 'status' }, el('span', {}, 'Shoebox cannot be reached. Trying again…')));
    else if (kind === 'signed-out') area.prepend(signedOutBanner());
  }
}

// "You are signed out" (the session ended, or the server has a new key), how to sign in again:
// the sign-in page, or a field for the link (or its key).
function signedOutBanner() {
  const field = el('input', { type: 'text', name: 'link', autocomplete: 'off', spellcheck: 'false', placeholder: 'http://127.0.0.1:8080/?key=…',
    'aria-label': 'The link shoebox serve printed' });
  const problem = el('span', { class: 'sign-in-problem', role: 'alert' });
  const form = el('form', { class: 'sign-in-form' }, field, el('button', { type: 'submit', class: 'button primary' }, 'Sign In'), problem);
  form.addEventListener('submit', (event) => {
    event.preventDefault();
    const key = keyFrom(field.value);
    if (!key) {
      problem.textContent = 'Paste the whole link shoebox serve printed: it ends in ?key= and the key.';
      field.focus();
      return;
    }
    // The server sets its cookie and sends the browser back to this page (the photo shown stays).
    location.assign(`/?key=${encodeURIComponent(key)}${location.hash}`);
  });
  return el('div', { class: 'banner signed-out', role: 'alert' },
    el('div', { class: 'signed-out-text' },
      el('strong', {}, 'You are signed out of Shoebox.'),
      el('span', {}, ' This tab cannot reach your library until you sign in again: with your name and password, '
        + 'or with the link shoebox serve printed when it started (it ends in ?key=…), pasted here.')),
    el('a', { class: 'button', href: '/' }, 'Sign In with a Password'),
    form);
}

// The key in a pasted link (`…/?key=KEY`), or the text itself when it is a bare key.
function keyFrom(text) {
  const value = text.trim();
  if (!value) return null;
  if (/^[\w-]{16,}$/.test(value)) return value;
  try {
    return new URL(value, location.href).searchParams.get('key');
  } catch {
    return null;
  }
}

// Any action that failed without handling its own error says so (signed out: the banner has).
export function reportUnhandledFailures() {
  session.onSignedOut = signedOut;
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason;
    if (reason?.status === 401 || connection === 'signedOut') return;
    const message = reason?.status === 0 ? 'Shoebox cannot be reached: the action was not done.' : `That did not work: ${reason?.message ?? reason}`;
    showError(message);
  });
  // A dialog that shows banners shows the connection's as it opens.
  new MutationObserver(() => showConnection()).observe(document.body, { subtree: true, attributeFilter: ['open'] });
}
