// Partner sharing (docs/API.md › Partner sharing): sharing one's whole library, or what was taken
// from a date on, with a person of the household, read-only; the libraries shared with one in the
// sidebar (Shared with You, each a page of its own: #/partner/NAME); and whether those photos
// also show in one's Recents. Changes either side makes arrive as `library` events naming the
// other person (library-view.js calls partnersChanged).

import { api } from './api.js';
import { ask } from './dialog.js';
import { $, el, button, formatDate } from './util.js';
import { showToast } from './toast.js';

let shares = { sharing: [], sharedWithMe: [] };
let firstLoad = null;

const path = (name) => `/api/partners/${encodeURIComponent(name)}`;
const fromPath = (name) => `/api/partners/from/${encodeURIComponent(name)}`;

// The shares, once they have been read (a partner's page opened first waits for them).
export function partnersKnown() { return firstLoad ?? loadPartners().catch(() => {}); }

// The sidebar's Shared with You: one link a partner, to their photos.
export function loadPartners() {
  const load = readPartners();
  firstLoad ??= load;
  return load;
}

async function readPartners() {
  shares = await api.get('/api/partners');
  const current = location.hash.startsWith('#/partner/') ? decodeURIComponent(location.hash.slice('#/partner/'.length).split('/')[0]) : null;
  $('.partner-libraries').replaceChildren(...shares.sharedWithMe.map((share) => el('li', {},
    el('a', {
      class: 'album-link', href: `#/partner/${encodeURIComponent(share.sharer.name)}`, 'aria-current': String(current === share.sharer.name),
      'aria-label': `Photos shared by ${share.sharer.displayName}`,
    }, el('span', {}, share.sharer.displayName)))));
  $('.partners-heading').hidden = shares.sharedWithMe.length === 0;
  return shares;
}

// The share a partner's page shows (null once they stopped).
export function sharedBy(name) { return shares.sharedWithMe.find((share) => share.sharer.name === name) ?? null; }

// Whether any partner's photos are in the person's Recents.
export function partnersInTimeline() { return shares.sharedWithMe.some((share) => share.inTimeline); }

// The controls over a partner's page: show in Recents, stop seeing.
export function partnerControls(name, { changed }) {
  const share = sharedBy(name);
  if (!share) return el('p', { class: 'hint' }, 'This library is no longer shared with you.');
  const since = share.startDate ? `taken since ${formatDate(share.startDate)}` : 'all of them';
  const toggle = el('input', { type: 'checkbox', class: 'partner-in-timeline', checked: share.inTimeline });
  toggle.addEventListener('change', async () => {
    try {
      await api.patch(fromPath(name), { inTimeline: toggle.checked });
      await loadPartners();
      showToast(toggle.checked ? `${share.sharer.displayName}’s photos now show in Recents too.` : `${share.sharer.displayName}’s photos show only here now.`);
      changed();
    } catch (error) {
      toggle.checked = !toggle.checked;
      showToast(error.message);
    }
  });
  return el('div', { class: 'partner-controls' },
    el('span', { class: 'hint' }, `${share.sharer.displayName} shares photos with you (${since}). You can look, not change.`),
    el('label', { class: 'partner-toggle' }, toggle, ' Show in my Recents'),
    button('Stop Seeing', async () => {
      const sure = await ask({ title: `Stop seeing ${share.sharer.displayName}’s photos?`, message: 'They stay theirs; they can share them with you again.', confirm: 'Stop Seeing', danger: true });
      if (!sure) return;
      await api.delete(fromPath(name));
      await loadPartners();
      location.hash = '#/';
    }, { ariaLabel: `Stop seeing ${share.sharer.displayName}’s photos` }));
}

// Account › Partner Sharing: with whom one's library is shared, and sharing it.
export async function showPartnerSettings(container) {
  let people;
  try {
    [, { people }] = await Promise.all([loadPartners(), api.get('/api/household')]);
  } catch (error) {
    container.replaceChildren(el('p', { class: 'status' }, error.message));
    return;
  }
  const rows = shares.sharing.map((share) => el('li', { class: 'partner-row' },
    el('span', {}, share.partner.displayName),
    el('span', { class: 'hint' }, ` ${share.startDate ? `photos taken since ${formatDate(share.startDate)}` : 'your whole library'} · since ${formatDate(share.creationDate)}`),
    button('Stop Sharing', async () => {
      await api.delete(path(share.partner.name)).catch((error) => showToast(error.message));
      showPartnerSettings(container);
    }, { ariaLabel: `Stop sharing your library with ${share.partner.displayName}` })));
  const others = people.filter((person) => !shares.sharing.some((share) => share.partner.name === person.name));
  const form = el('form', { class: 'partner-form' },
    el('label', {}, 'Share with ', el('select', { name: 'person', required: true },
      ...others.map((person) => el('option', { value: person.name }, person.displayName)))),
    el('fieldset', { class: 'partner-range' }, el('legend', {}, 'What'),
      el('label', {}, el('input', { type: 'radio', name: 'range', value: 'all', checked: true }), ' Everything'),
      el('label', {}, el('input', { type: 'radio', name: 'range', value: 'from' }), ' Photos taken from ',
        el('input', { type: 'date', name: 'start', 'aria-label': 'First day shared' }))),
    el('button', { type: 'submit', class: 'button' }, 'Share Library'));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    const start = data.get('range') === 'from' ? data.get('start') : null;
    if (data.get('range') === 'from' && !start) { showToast('Choose the first day to share.'); return; }
    try {
      // The first day, from its start where the person is.
      await api.put(path(data.get('person')), { startDate: start ? new Date(`${start}T00:00:00`).toISOString() : null });
      showPartnerSettings(container);
    } catch (error) {
      showToast(error.message);
    }
  });
  container.replaceChildren(
    el('h3', {}, 'Partner Sharing'),
    el('p', { class: 'hint' }, 'Let someone of your household see your photos and movies, all of them or those taken from a day on. They can look and download, not change; hidden and deleted ones are never shared.'),
    rows.length ? el('ul', { class: 'partner-list', role: 'list' }, ...rows) : el('p', { class: 'hint' }, 'Your library is not shared with anyone.'),
    others.length ? form : el('p', { class: 'hint' }, 'There is nobody else to share with.'));
}

// Someone's partner sharing with the person changed: the sidebar follows; `refresh` runs when the
// photos shown may have changed with it.
export async function partnersChanged(refresh) {
  await loadPartners().catch(() => {});
  refresh();
}
