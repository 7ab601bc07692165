// Settings › Privacy: each client's access to the camera, the microphone and the library, changed
// or revoked here, the photos a limited client sees, and what it read and changed.

import { api } from './api.js';
import { PhotoChooser } from './chooser.js';
import { el, button, formatDate, thumbnailURL } from './util.js';
import { ask } from './dialog.js';

const services = [
  ['camera', 'Camera'], ['microphone', 'Microphone'], ['photoLibrary', 'Photos'], ['photoLibraryAdd', 'Add Photos Only'],
];
const statusNames = { notDetermined: 'Ask next time', authorized: 'Allowed', denied: 'Not allowed', limited: 'Selected photos', restricted: 'Restricted by policy' };

// focus: a client identifier whose Choose Photos button takes the focus once shown (after the
// chooser closed: the button that opened it was replaced).
export async function showPrivacy(container, { focus } = {}) {
  container.replaceChildren(el('p', {}, 'Loading…'));
  let clients;
  try {
    clients = await api.get('/api/clients');
  } catch (error) {
    container.replaceChildren(el('p', { class: 'status' }, error.message));
    return;
  }
  if (!clients.length) {
    container.replaceChildren(el('p', { class: 'hint' }, 'No app has registered with this library yet.'));
    return;
  }
  container.replaceChildren(...clients.map((client) => clientCard(client, container)));
  if (focus) [...container.querySelectorAll('article.client')].find((card) => card.dataset.client === focus)?.querySelector('.choose-photos')?.focus();
}

function clientCard(client, container) {
  const rows = services.flatMap(([service, title]) => {
    const status = client.services[service];
    const options = ['notDetermined', 'authorized', 'denied'].concat(service === 'photoLibrary' ? ['limited'] : []);
    const select = el('select', { 'aria-label': `${title} access for ${client.displayName}`, disabled: status === 'restricted' },
      (status === 'restricted' ? ['restricted'] : options).map((value) => el('option', { value, selected: value === status }, statusNames[value])));
    select.addEventListener('change', async () => {
      const updated = await api.put(`/api/clients/${encodeURIComponent(client.identifier)}/services/${service}`, { status: select.value });
      // Only this card is drawn again (the others and an open report stay), and the focus stays
      // on the menu that was changed.
      const fresh = clientCard(updated, container);
      card.replaceWith(fresh);
      fresh.querySelector(`select[aria-label="${CSS.escape(select.getAttribute('aria-label'))}"]`)?.focus();
      // Selected photos with none selected yet shares nothing: go on to choose them.
      if (select.value === 'limited' && !updated.limitedSelection.length) choosePhotos(updated, container);
    });
    return [el('label', { for: '' }, title), select];
  });
  const report = el('div', { class: 'report' });
  const shared = client.limitedSelection.length;
  const choose = button('Choose Photos…', () => choosePhotos(client, container),
    { className: 'link-button choose-photos', ariaLabel: `Choose photos for ${client.displayName}` });
  choose.setAttribute('aria-describedby', `shared-${client.identifier}`);  // focused after a save, it reads the new count
  const card = el('article', { class: 'client', 'aria-label': client.displayName, dataset: { client: client.identifier } },
    el('h3', {}, client.displayName),
    el('p', { class: 'identifier' }, client.identifier),
    el('div', { class: 'services' }, rows),
    client.services.photoLibrary === 'limited' ? el('p', { class: 'limited-selection' },
      el('span', { class: 'shared-count', id: `shared-${client.identifier}` }, shared ? `${shared} photo${shared === 1 ? '' : 's'} shared` : 'No photos shared'),
      ' · ',
      choose) : null,
    el('p', {},
      button('Report', async () => showReport(client, report), { className: 'link-button', ariaLabel: `Report for ${client.displayName}` }),
      ' · ',
      button('Revoke Access', async () => {
        for (const [service] of services) {
          if (client.services[service] !== 'restricted') await api.put(`/api/clients/${encodeURIComponent(client.identifier)}/services/${service}`, { status: 'denied' });
        }
        await api.delete(`/api/clients/${encodeURIComponent(client.identifier)}/tokens`);
        showPrivacy(container);
      }, { className: 'link-button danger', ariaLabel: `Revoke access for ${client.displayName}` }),
      ' · ',
      button('Remove App', async () => {
        const confirmed = await ask({
          title: `Remove “${client.displayName}”?`,
          message: 'Shoebox forgets its access, the photos shared with it and its sign-in. If it comes back, it has to ask again.',
          confirm: 'Remove App', danger: true,
        });
        if (!confirmed) return;
        await api.delete(`/api/clients/${encodeURIComponent(client.identifier)}`);
        showPrivacy(container);
      }, { className: 'link-button danger', ariaLabel: `Remove ${client.displayName}` })),
    report);
  return card;
}

// The photos a limited client sees: the prompt's chooser, in its own dialog, saved with
// PUT /api/clients/ID/limited; the page then shows the new count.
function choosePhotos(client, container) {
  const dialog = document.querySelector('.chooser-dialog');
  const chooser = new PhotoChooser(client.limitedSelection);
  const status = el('p', { class: 'status', role: 'alert' });
  const save = button('Save', async () => {
    save.disabled = true;
    try {
      await api.put(`/api/clients/${encodeURIComponent(client.identifier)}/limited`, { assets: chooser.selection });
      dialog.close();
      await showPrivacy(container, { focus: client.identifier });
    } catch (error) {
      status.textContent = error.message;
      save.disabled = false;
    }
  }, { className: 'button primary' });
  dialog.replaceChildren(
    el('h2', { id: 'chooser-title' }, `Photos “${client.displayName}” can see`),
    el('p', { class: 'usage' }, 'Only the photos you select here are visible to the app.'),
    chooser.count,
    chooser.element,
    status,
    el('div', { class: 'dialog-buttons' }, save, button('Cancel', () => dialog.close())));
  dialog.addEventListener('close', () => chooser.close(), { once: true });
  dialog.showModal();
}

async function showReport(client, container) {
  const entries = await api.get(`/api/clients/${encodeURIComponent(client.identifier)}/report?limit=200`);
  if (!entries.length) {
    container.replaceChildren(el('p', { class: 'hint' }, `${client.displayName} has not read or changed anything.`));
    return;
  }
  container.replaceChildren(el('table', {},
    el('thead', {}, el('tr', {}, el('th', {}, 'When'), el('th', {}, 'What'), el('th', {}, 'Photo'), el('th', {}, 'Detail'))),
    el('tbody', {}, entries.map((entry) => el('tr', {},
      el('td', {}, formatDate(entry.date)), el('td', {}, actionNames[entry.action] ?? entry.action), el('td', {}, subject(entry)), el('td', {}, entry.detail ?? ''))))));
}

// What the report's actions mean to the person reading it.
const actionNames = {
  fetch: 'Listed', image: 'Viewed', imageData: 'Read the file', video: 'Played', editingInput: 'Opened for editing',
  create: 'Added', update: 'Changed', delete: 'Deleted', album: 'Changed an album', picked: 'Was given (picker)',
  thumbnail: 'Viewed', original: 'Downloaded', render: 'Viewed', detail: 'Read the details',
  deleteDeclined: 'Asked to delete (declined)', purgeDeclined: 'Asked to delete for good (declined)',
};

// The photo an entry concerns, as a thumbnail and its name; an album by its title; a photo since
// deleted by its identifier.
function subject(entry) {
  if (entry.asset) {
    return el('span', { class: 'report-asset' },
      el('img', { src: thumbnailURL('/api/assets', entry.asset, 64, 'fill'), alt: '', loading: 'lazy', width: 32, height: 32 }),
      entry.asset.originalFilename);
  }
  if (entry.albumTitle) return `Album “${entry.albumTitle}”`;
  return entry.localIdentifier ? el('span', { class: 'identifier', title: 'No longer in the library' }, entry.localIdentifier) : '—';
}
