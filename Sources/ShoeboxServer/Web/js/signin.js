// The sign-in page's passkey button: offered where passkeys work (see passkeys.js), it signs in
// with the authenticator's passkey for this site and goes on to the page asked for.

import { passkeysAvailable, signInWithPasskey } from './passkeys.js';

const button = document.querySelector('.passkey-sign-in');
const note = document.querySelector('.passkey-note');

if (button && passkeysAvailable()) {
  button.hidden = false;
  button.addEventListener('click', async () => {
    button.disabled = true;
    note.textContent = '';
    try {
      await signInWithPasskey();
      const next = document.querySelector('input[name=next]')?.value ?? '/';
      location.assign(next.startsWith('/') && !next.startsWith('//') ? next : '/');
    } catch (error) {
      // The person closing the browser's dialog is no failure to report loudly.
      note.textContent = error.name === 'NotAllowedError' ? 'No passkey was chosen.' : `${error.message}`;
      note.hidden = false;
      button.disabled = false;
    }
  });
}
