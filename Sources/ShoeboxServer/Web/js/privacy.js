// Settings › Privacy: each client's access to the camera, the microphone and the library, changed
// or revoked here, and what it read and changed.

import { api } from './api.js';
import { el, button, formatDate } from './util.js';

const services = [
  ['camera', 'Camera'], ['microphone', 'Microphone'], ['photoLibrary', 'Photos'], ['photoLibraryAdd', 'Add Photos Only'],
];
const statusNames = { notDetermined: 'Ask next time', authorized: 'Allowed', denied: 'Not allowed', limited: 'Selected photos', restricted: 'Restricted by policy' };

export async function showPrivacy(container) {
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
}

function clientCard(client, container) {
  const rows = services.flatMap(([service, title]) => {
    const status = client.services[service];
    const options = ['notDetermined', 'authorized', 'denied'].concat(service === 'photoLibrary' ? ['limited'] : []);
    const select = el('select', { 'aria-label': `${title} access for ${client.displayName}`, disabled: status === 'restricted' },
      (status === 'restricted' ? ['restricted'] : options).map((value) => el('option', { value, selected: value === status }, statusNames[value])));
    select.addEventListener('change', async () => {
      await api.put(`/api/clients/${encodeURIComponent(client.identifier)}/services/${service}`, { status: select.value });
      showPrivacy(container);
    });
    return [el('label', { for: '' }, title), select];
  });
  const report = el('div', { class: 'report' });
  const card = el('article', { class: 'client', 'aria-label': client.displayName },
    el('h3', {}, client.displayName),
    el('p', { class: 'identifier' }, client.identifier, client.limitedSelection.length ? ` · ${client.limitedSelection.length} photos shared` : ''),
    el('div', { class: 'services' }, rows),
    el('p', {},
      button('Report', async () => showReport(client, report), { className: 'link-button', ariaLabel: `Report for ${client.displayName}` }),
      ' · ',
      button('Revoke Access', async () => {
        for (const [service] of services) {
          if (client.services[service] !== 'restricted') await api.put(`/api/clients/${encodeURIComponent(client.identifier)}/services/${service}`, { status: 'denied' });
        }
        await api.delete(`/api/clients/${encodeURIComponent(client.identifier)}/tokens`);
        showPrivacy(container);
      }, { className: 'link-button danger', ariaLabel: `Revoke access for ${client.displayName}` })),
    report);
  return card;
}

async function showReport(client, container) {
  const entries = await api.get(`/api/clients/${encodeURIComponent(client.identifier)}/report?limit=200`);
  if (!entries.length) {
    container.replaceChildren(el('p', { class: 'hint' }, `${client.displayName} has not read or changed anything.`));
    return;
  }
  container.replaceChildren(el('table', {},
    el('thead', {}, el('tr', {}, el('th', {}, 'When'), el('th', {}, 'What'), el('th', {}, 'Asset'), el('th', {}, 'Detail'))),
    el('tbody', {}, entries.map((entry) => el('tr', {},
      el('td', {}, formatDate(entry.date)), el('td', {}, entry.action), el('td', {}, entry.localIdentifier || '—'), el('td', {}, entry.detail ?? ''))))));
}
