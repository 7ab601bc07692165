// What went wrong, where the user sees it: a failed action's message (dismissable, gone after a
// while) and, while the server cannot be reached, a banner that goes when it is back.

import { el, button } from './util.js';

const area = () => document.querySelector('.banner-area');

// Shows `message` as an alert.
export function showError(message) {
  const banner = el('div', { class: 'banner error', role: 'alert' },
    el('span', {}, message),
    button('Dismiss', () => banner.remove(), { className: 'link-button' }));
  area()?.append(banner);
  setTimeout(() => banner.remove(), 10_000);
}

// The connection banner: shown once the connection has been lost for a moment (a stream that
// reconnects at once shows nothing), removed when it is back.
let pending = 0;
export function connectionLost(lost) {
  clearTimeout(pending);
  if (!lost) {
    document.querySelector('.banner.offline')?.remove();
    return;
  }
  pending = setTimeout(() => {
    if (document.querySelector('.banner.offline')) return;
    area()?.prepend(el('div', { class: 'banner offline', role: 'status' }, el('span', {}, 'Shoebox cannot be reached. Trying again…')));
  }, 1_500);
}

// Any action that failed without handling its own error says so.
export function reportUnhandledFailures() {
  window.addEventListener('unhandledrejection', (event) => {
    const reason = event.reason;
    const message = reason?.status === 0 ? 'Shoebox cannot be reached: the action was not done.' : `That did not work: ${reason?.message ?? reason}`;
    showError(message);
  });
}
