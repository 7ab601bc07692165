// Shared links: a dialog that makes one for an album or the chosen photos (expiry, password,
// downloads, place and camera details — left out unless asked), the link shown once with a copy
// button, and the Shared Links page that lists them with their views and turns them off.

import { api } from './api.js';
import { el, formatDate } from './util.js';

// Asks how to share; resolves to the new link ({share, url}) or null.
export function shareDialog({ title, album = null, assets = null }) {
  return new Promise((resolve) => {
    const form = el('form', { method: 'dialog', class: 'ask-form share-form' },
      el('h2', { id: 'share-title' }, `Share ${title}`),
      el('p', { class: 'hint' }, 'Anyone with the link sees these photos, read-only, without signing in — and nothing else of your library.'),
      el('label', {}, 'Title ', el('input', { type: 'text', name: 'title', value: title, maxlength: '200' })),
      el('label', {}, 'Expires ', el('select', { name: 'expires' },
        el('option', { value: '' }, 'Never'), el('option', { value: '1' }, 'In a day'), el('option', { value: '7', selected: true }, 'In a week'),
        el('option', { value: '30' }, 'In a month'))),
      el('label', {}, 'Password ', el('input', { type: 'password', name: 'password', autocomplete: 'new-password', maxlength: '200', placeholder: 'None' })),
      el('label', { class: 'choice' }, el('input', { type: 'checkbox', name: 'download' }), ' Allow downloads'),
      el('label', { class: 'choice' }, el('input', { type: 'checkbox', name: 'metadata' }), ' Include location and camera details'),
      el('p', { class: 'share-error', role: 'alert' }),
      el('div', { class: 'dialog-buttons row' },
        el('button', { type: 'submit', value: 'confirm', class: 'button primary' }, 'Create Link'),
        el('button', { type: 'submit', value: 'cancel', class: 'button', formnovalidate: true }, 'Cancel')));
    const dialog = el('dialog', { class: 'ask-dialog', 'aria-labelledby': 'share-title' }, form);
    document.body.append(dialog);
    form.addEventListener('submit', async (event) => {
      if (event.submitter?.value !== 'confirm') return;
      event.preventDefault();
      const data = new FormData(form);
      try {
        const made = await api.post('/api/shares', {
          ...(album ? { album } : { assets }), title: data.get('title') || null,
          expiresInDays: data.get('expires') ? Number(data.get('expires')) : null, password: data.get('password') || null,
          allowsDownload: !!data.get('download'), includesMetadata: !!data.get('metadata'),
        });
        dialog.close();
        dialog.remove();
        resolve(made);
        showLink(made);
      } catch (error) {
        form.querySelector('.share-error').textContent = error.message;
      }
    });
    dialog.addEventListener('close', () => { if (dialog.isConnected) { dialog.remove(); resolve(null); } });
    dialog.showModal();
  });
}

// The new link, once: its whole URL with a copy button.
function showLink({ share, url }) {
  const full = `${location.origin}${url}`;
  const field = el('input', { type: 'text', class: 'share-url', readonly: true, value: full, 'aria-label': 'Link' });
  const copy = el('button', { type: 'button', class: 'button', onclick: async () => {
    field.select();
    try { await navigator.clipboard.writeText(full); copy.textContent = 'Copied'; } catch { document.execCommand?.('copy'); copy.textContent = 'Copied'; }
  } }, 'Copy');
  const dialog = el('dialog', { class: 'ask-dialog share-made', 'aria-labelledby': 'share-made-title' },
    el('form', { method: 'dialog', class: 'ask-form' },
      el('h2', { id: 'share-made-title' }, `“${share.title}” is shared`),
      el('p', { class: 'hint' }, 'Send this link. It is shown only now; Shared Links in Settings lists it, counts its visits and turns it off.'),
      el('div', { class: 'row' }, field, copy),
      el('div', { class: 'dialog-buttons row' }, el('button', { type: 'submit', class: 'button primary' }, 'Done'))));
  document.body.append(dialog);
  dialog.addEventListener('close', () => dialog.remove());
  dialog.showModal();
  field.select();
}

// The Shared Links page.
export async function showShares(container) {
  const { shares } = await api.get('/api/shares');
  if (!shares.length) {
    container.replaceChildren(el('p', { class: 'empty-state' }, 'Nothing is shared. Share an album from its page, or chosen photos with Share.'));
    return;
  }
  container.replaceChildren(el('ul', { class: 'share-list', role: 'list' }, ...shares.map((share) => {
    const state = share.revokedDate ? 'Turned off' : share.isOpen ? (share.expiresDate ? `Open until ${formatDate(share.expiresDate)}` : 'Open') : 'Expired';
    const details = [share.album ? 'Album' : `${share.assetCount} photo${share.assetCount === 1 ? '' : 's'}`,
      share.hasPassword ? 'password' : null, share.allowsDownload ? 'downloads' : null,
      share.includesMetadata ? 'with place and camera' : 'without place and camera'].filter(Boolean).join(' · ');
    const views = el('ol', { class: 'share-views', hidden: true });
    const item = el('li', { class: 'share-item', 'data-id': share.id },
      el('div', { class: 'share-head' }, el('strong', {}, share.title), el('span', { class: 'share-state' }, state)),
      el('div', { class: 'hint' }, `Made ${formatDate(share.createdDate)} · ${details}`),
      el('div', { class: 'row' },
        el('button', { type: 'button', class: 'button', 'aria-expanded': 'false', onclick: async (event) => {
          const open = views.hidden;
          views.hidden = !open;
          event.currentTarget.setAttribute('aria-expanded', String(open));
          if (open) {
            const { views: list } = await api.get(`/api/shares/${share.id}/views`);
            views.replaceChildren(...(list.length ? list.map((view) => el('li', {}, `${formatDate(view.date)} — ${view.what} from ${view.address}`))
              : [el('li', {}, 'No visits yet.')]));
          }
        } }, `${share.viewCount.toLocaleString()} visit${share.viewCount === 1 ? '' : 's'}`),
        share.revokedDate ? null : el('button', { type: 'button', class: 'button danger', onclick: async () => {
          await api.delete(`/api/shares/${share.id}`);
          showShares(container);
        } }, 'Turn Off')),
      views);
    return item;
  })));
}
