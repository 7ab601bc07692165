// The household's Shared Library (docs/API.md › The Shared Library): who is in it and invited
// (Account › Shared Library, where one invites, joins with what to move in, chooses where new
// photos go, and leaves keeping everything or one's own), the library switcher over Recents
// (Both Libraries, Personal Library, Shared Library), and moving chosen photos in or out. Its
// photos are the person's own to change; each shows who added it. Changes to who is in it arrive
// as `library` events naming them in `sharedLibrary` (library-view.js calls sharedLibraryChanged).

import { api } from './api.js';
import { ask } from './dialog.js';
import { $, el, button, formatDate } from './util.js';
import { showToast } from './toast.js';

let current = null;  // {participants, maximumParticipants} or null
let me = null;

const scopes = [['both', 'Both Libraries'], ['personal', 'Personal Library'], ['shared', 'Shared Library']];

export async function loadSharedLibrary() {
  ({ sharedLibrary: current } = await api.get('/api/shared-library'));
  return current;
}

// Whether the person is in it (joined).
export function inSharedLibrary() {
  return Boolean(current?.participants.some((participant) => participant.person.id === me && participant.hasJoined));
}

// Which libraries Recents shows (the person's choice, kept in this browser).
export function libraryScope() {
  const chosen = localStorage.getItem('shoebox.library') ?? 'both';
  return inSharedLibrary() && scopes.some(([value]) => value === chosen) ? chosen : 'both';
}

// The switcher over Recents, for a person in it; `changed` runs when they switch.
export function librarySwitcher(changed) {
  const bar = $('.library-switch');
  bar.hidden = !inSharedLibrary();
  if (bar.hidden) return;
  const chosen = libraryScope();
  bar.replaceChildren(...scopes.map(([value, label]) => {
    const control = el('button', { type: 'button', class: 'button segment', 'aria-pressed': String(value === chosen) }, label);
    control.addEventListener('click', () => {
      localStorage.setItem('shoebox.library', value);
      changed();
    });
    return control;
  }));
}

// A line for the viewer and Info: who added a Shared Library photo (and who deleted it).
export function sharedLibraryLine(asset) {
  if (asset.library !== 'shared') return null;
  const added = asset.addedBy ? `added by ${asset.addedBy.displayName}` : 'added by someone no longer here';
  const deleted = asset.deletedBy ? ` · deleted by ${asset.deletedBy.displayName}` : '';
  return el('span', { class: 'shared-library-line' }, `Shared Library · ${added}${deleted}`);
}

// Moves chosen photos in (`shared`) or back out (`personal`); returns how many moved.
export async function moveAssets(to, assets) {
  const { moved } = await api.post('/api/shared-library/move', { to, assets });
  const skipped = assets.length - moved;
  showToast(`${moved.toLocaleString()} moved to your ${to === 'shared' ? 'Shared' : 'Personal'} Library${skipped > 0 ? ` (${skipped.toLocaleString()} already there)` : ''}.`);
  return moved;
}

// Account › Shared Library.
export async function showSharedLibrarySettings(container, person) {
  me = person?.id ?? me;
  let people;
  try {
    [, { people }] = await Promise.all([loadSharedLibrary(), api.get('/api/household')]);
  } catch (error) {
    container.replaceChildren(el('p', { class: 'status' }, error.message));
    return;
  }
  const refresh = () => showSharedLibrarySettings(container, person);
  const mine = current?.participants.find((participant) => participant.person.id === me) ?? null;
  const children = [el('h3', {}, 'Shared Library'),
    el('p', { class: 'hint' }, 'One library for the household: everyone in it adds, edits, favorites and deletes its photos alike, and each photo shows who added it. Up to six people.')];
  if (current) {
    children.push(el('ul', { class: 'shared-library-people', role: 'list' }, ...current.participants.map((participant) => el('li', {},
      el('span', {}, participant.person.displayName),
      el('span', { class: 'hint' }, participant.hasJoined ? ` · in it since ${formatDate(participant.joinedDate)}` : ' · invited'),
      mine?.hasJoined && !participant.hasJoined
        ? button('Withdraw', async () => {
          await api.delete(`/api/shared-library/invitations/${encodeURIComponent(participant.person.name)}`).catch((error) => showToast(error.message));
          refresh();
        }, { ariaLabel: `Withdraw the invitation to ${participant.person.displayName}` }) : null))));
  }
  if (mine && !mine.hasJoined) children.push(joinForm(refresh));
  if (mine?.hasJoined) {
    const toggle = el('input', { type: 'checkbox', class: 'moves-new-assets', checked: mine.movesNewAssets });
    toggle.addEventListener('change', async () => {
      try {
        await api.patch('/api/shared-library', { movesNewAssets: toggle.checked });
        showToast(toggle.checked ? 'New photos go to the Shared Library.' : 'New photos stay in your Personal Library.');
      } catch (error) {
        toggle.checked = !toggle.checked;
        showToast(error.message);
      }
    });
    const keep = el('select', { name: 'keep', 'aria-label': 'What to keep' },
      el('option', { value: 'everything' }, 'Keep everything'), el('option', { value: 'mine' }, 'Keep only what I added'));
    children.push(
      el('label', { class: 'partner-toggle' }, toggle, ' Add new photos and captures to the Shared Library'),
      el('div', { class: 'row' }, button('Move Everything In', async () => {
        try {
          const { moved } = await api.post('/api/shared-library/move', { to: 'shared', move: 'everything' });
          showToast(`${moved.toLocaleString()} moved to the Shared Library.`);
        } catch (error) {
          showToast(error.message);
        }
      })),
      el('div', { class: 'row shared-library-leave' }, keep, button('Leave Shared Library', async () => {
        const everything = keep.value === 'everything';
        const sure = await ask({
          title: 'Leave the Shared Library?',
          message: `${everything ? 'A copy of every photo in it' : 'A copy of each photo you added'} comes into your Personal Library. The others keep everything.`,
          confirm: 'Leave', danger: true,
        });
        if (!sure) return;
        try {
          const { moved } = await api.post('/api/shared-library/leave', { keep: keep.value });
          showToast(`You left the Shared Library; ${moved.toLocaleString()} photos copied to your library.`);
          refresh();
        } catch (error) {
          showToast(error.message);
        }
      }, { className: 'button danger' })));
  }
  const room = !current || (mine?.hasJoined && current.participants.length < current.maximumParticipants);
  const others = people.filter((other) => other.id !== me && !current?.participants.some((participant) => participant.person.id === other.id));
  if (room && others.length && (!current || mine?.hasJoined)) {
    const form = el('form', { class: 'partner-form shared-library-invite' },
      el('label', {}, 'Invite ', el('select', { name: 'person', required: true }, ...others.map((other) => el('option', { value: other.name }, other.displayName)))),
      el('button', { type: 'submit', class: 'button' }, current ? 'Invite' : 'Start a Shared Library'));
    form.addEventListener('submit', async (event) => {
      event.preventDefault();
      try {
        await api.post('/api/shared-library/invitations', { person: new FormData(form).get('person') });
        refresh();
      } catch (error) {
        showToast(error.message);
      }
    });
    children.push(form);
  } else if (current && !mine) {
    children.push(el('p', { class: 'hint' }, 'You are not in the Shared Library.'));
  }
  container.replaceChildren(...children);
}

function joinForm(refresh) {
  const form = el('form', { class: 'partner-form shared-library-join' },
    el('fieldset', { class: 'partner-range' }, el('legend', {}, 'Move in from your library'),
      el('label', {}, el('input', { type: 'radio', name: 'move', value: 'everything', checked: true }), ' Everything'),
      el('label', {}, el('input', { type: 'radio', name: 'move', value: 'from' }), ' Photos taken from ',
        el('input', { type: 'date', name: 'from', 'aria-label': 'First day moved in' })),
      el('label', {}, el('input', { type: 'radio', name: 'move', value: 'nothing' }), ' Nothing for now (choose photos later)')),
    el('label', {}, el('input', { type: 'checkbox', name: 'movesNewAssets' }), ' Add new photos and captures to the Shared Library'),
    el('div', { class: 'row' },
      el('button', { type: 'submit', class: 'button primary' }, 'Join'),
      button('Decline', async () => {
        await api.post('/api/shared-library/decline').catch((error) => showToast(error.message));
        refresh();
      })));
  form.addEventListener('submit', async (event) => {
    event.preventDefault();
    const data = new FormData(form);
    if (data.get('move') === 'from' && !data.get('from')) { showToast('Choose the first day to move in.'); return; }
    try {
      const { moved } = await api.post('/api/shared-library/join', {
        move: data.get('move'), from: data.get('from') || undefined, movesNewAssets: data.get('movesNewAssets') === 'on',
      });
      showToast(`You joined the Shared Library; ${moved.toLocaleString()} photos moved in.`);
      refresh();
    } catch (error) {
      showToast(error.message);
    }
  });
  return form;
}

// Someone joined, left or was invited: the settings and the switcher follow; `refresh` runs
// since the photos shown may have changed with it.
export async function sharedLibraryChanged(refresh) {
  await loadSharedLibrary().catch(() => {});
  const panel = $('.shared-library-panel');
  if (panel && !panel.closest('[hidden]')) showSharedLibrarySettings(panel);
  refresh();
}

// Who the person is (the switcher and the settings need it before the first listing).
export function setSharedLibraryPerson(person) { me = person?.id ?? null; }
