// The library view: the photos of an album, a place, a memory or a search — their fetch, title,
// count, order and empty state, the memories over Recents — kept up to date by the change stream.

import { sharedAlbumsChanged } from './shared-albums.js';
import { sharedBy, partnerControls, partnersChanged, partnersKnown } from './partners.js';
import { libraryScope, librarySwitcher, sharedLibraryChanged } from './shared-library.js';
import { api, listen } from './api.js';
import { PagedSource } from './grid.js';
import { connectionLost } from './status.js';
import { showToast } from './toast.js';
import { $, el, thumbnailURL } from './util.js';
import { openScope } from './addresses.js';
import { grid, viewer } from './photos.js';
import { updateSelection, favoritesChanged } from './selection.js';
import { loadAlbums, scheduleAlbumRefresh } from './sidebar.js';
import { prompts, showPickerBanner } from './questions.js';
import {
  state, currentAlbum, viewKind, setScope, setFetch, setMemories, closeEvents, setEvents,
} from './library-state.js';

// Assets a grid page holds, and how many come with a fetch's answer.
const PAGE_SIZE = 200;

// The first load of Recents asks for its fetch at once, beside who is signed in and whether they
// are in the Shared Library: showAlbum takes it when it would ask the same (a person who chose
// to see one of their libraries asks again).
let early = null;
export function fetchRecentsEarly() {
  const query = { partners: true, ascending: oldestFirst() };
  const answer = api.post('/api/fetches', { ...query, page: PAGE_SIZE });
  answer.catch(() => {});  // if it is never taken, its failure is nobody's
  early = { key: JSON.stringify(query), answer };
}

// `refreshAlbums`: false on the first load, whose album list is already on its way.
// `place`: a place's photos ({key, title}) rather than the album's; left out, the shown one stays.
export async function showAlbum(albumID, { refreshAlbums = true, place } = {}) {
  setScope(albumID, place);
  $('.library-view').hidden = false;
  $('.privacy-view').hidden = true;
  $('.jobs-view').hidden = true;
  $('.places-view').hidden = true;
  $('.shares-view').hidden = true;
  $('.places-link').removeAttribute('aria-current');
  const album = currentAlbum();
  $('.view-title').textContent = state.place?.title ?? album?.title ?? 'Recents';
  const query = album && album.subtype !== 'smartAlbumUserLibrary' && !state.place ? { album: album.localIdentifier } : {};
  if (state.place?.key.startsWith('region:')) query.region = state.place.key.slice(7);
  else if (state.place?.key.startsWith('memory:')) query.memory = state.place.key.slice(7);
  else if (state.place?.key.startsWith('partner:')) query.partner = state.place.key.slice(8);
  else if (state.place?.key.startsWith('keyword:')) query.keyword = state.place.key.slice(8);
  else if (state.place) query.place = state.place.key;
  // Recents (and a search there) holds what partners share, where the person chose to show it.
  const recents = !state.place && (!album || album.subtype === 'smartAlbumUserLibrary');
  if (recents) query.partners = true;
  // Recents shows the libraries the person chose (Both, Personal, Shared) when they are in the Shared Library.
  if (recents && libraryScope() !== 'both') query.library = libraryScope();
  if (recents) librarySwitcher(() => showAlbum(state.album));
  else $('.library-switch').hidden = true;
  if (query.partner) await partnersKnown();
  showPartnerBar();
  // Views in the order photos were taken open at the newest (as Photos does), unless the user
  // chose oldest first; albums too (by date, with month headers), unless the user chose the
  // album's own order; Recently Added and Deleted keep theirs.
  if (byCaptureDate(album)) query.ascending = oldestFirst();
  else if (isUserAlbum(album) && !albumOrder()) Object.assign(query, { sort: 'creationDate', ascending: oldestFirst() });
  // A search looks in the view it was typed in (Recents: the whole library).
  const search = state.search;
  if (search) query.search = search;
  let fetch;
  try {
    // The grid's first page comes in the fetch's answer; the first load's Recents was asked for early.
    const key = JSON.stringify(query);
    const answer = early?.key === key ? early.answer : api.post('/api/fetches', { ...query, page: PAGE_SIZE });
    early = null;
    fetch = await answer;
  } catch (error) {
    // A partner who stopped sharing: their page says so, and holds nothing.
    if (!query.partner || error.status !== 404) throw error;
    fetch = { id: null, count: 0, sections: [] };
  }
  if (search !== state.search) return;  // typed on meanwhile: a newer fetch is on its way
  const { page, ...created } = fetch;
  setFetch(created, new PagedSource({
    pageURL: (offset, limit) => `/api/fetches/${state.fetch.id}/assets?offset=${offset}&limit=${limit}`,
    count: fetch.count,
    sections: fetch.sections,
    pageSize: PAGE_SIZE,
  }));
  if (page) state.source.seed(page);
  showSearchTerms(fetch.search);
  grid.setSource(state.source);
  showMemories(isRecents());
  updateCount();
  listenForChanges();
  if (refreshAlbums) loadAlbums();
}

// Over a partner's photos: whose they are, Show in my Recents, Stop Seeing.
function showPartnerBar() {
  const bar = $('.partner-bar');
  const name = state.place?.key.startsWith('partner:') ? state.place.key.slice(8) : null;
  bar.hidden = !name;
  if (!name) return;
  $('.view-title').textContent = `Shared by ${sharedBy(name)?.sharer.displayName ?? name}`;
  bar.replaceChildren(partnerControls(name, { changed: () => {} }));
}

// What the search was understood as, next to the view's title.
function showSearchTerms(terms) {
  const shown = $('.search-terms');
  shown.hidden = !terms?.length;
  shown.replaceChildren(...(terms ?? []).map((term) => el('span', { class: 'search-term' }, term)));
  if (terms?.length) $('.view-title').textContent = `Search${currentAlbum() && currentAlbum().subtype !== 'smartAlbumUserLibrary' ? ` in ${currentAlbum().title}` : ''}`;
}

// Memories over the Recents grid: On This Day, trips, years in review (GET /api/memories); × hides one.
async function showMemories(shown) {
  const strip = $('.memories');
  if (!shown) { strip.hidden = true; return; }
  const { memories } = await api.get('/api/memories').catch(() => ({ memories: [] }));
  setMemories(memories);
  strip.hidden = memories.length === 0 || !isRecents();  // the view may have moved on meanwhile
  strip.replaceChildren(...memories.map((memory) => el('div', { class: 'memory-card', role: 'listitem' },
    el('button', { type: 'button', class: 'memory-open', 'aria-label': `${memory.title}, ${memory.subtitle}, ${memory.count.toLocaleString()} item${memory.count === 1 ? '' : 's'}`,
      onclick: () => openScope(`memory:${memory.id}`, memory.title) },
    memory.cover ? el('img', { src: thumbnailURL('/api/assets', memory.cover, 256, 'fill'), alt: '', loading: 'lazy', decoding: 'async' }) : null,
    el('span', { class: 'memory-title' }, memory.title), el('span', { class: 'memory-subtitle' }, memory.subtitle)),
    el('button', { type: 'button', class: 'memory-hide', 'aria-label': `Hide ${memory.title}`, title: 'Hide this memory',
      onclick: async () => {
        const path = `/api/memories/${encodeURIComponent(memory.id)}`;
        await api.post(`${path}/hide`);
        // This one memory goes (the others, and new ones, still come), with Undo.
        showToast(`Hid the memory “${memory.title}”, ${memory.subtitle}.`, {
          action: { label: 'Undo', run: async () => { await api.post(`${path}/unhide`).catch((error) => showToast(error.message)); showMemories(isRecents()); } },
        });
        showMemories(true);
      } }, '×'))));
}

// Recents itself: not a place, a memory, a search or another album.
function isRecents() {
  return !state.place && !state.search && (!state.album || currentAlbum()?.subtype === 'smartAlbumUserLibrary');
}

const emptyStates = {
  search: () => `Nothing found for “${state.search}”. Search looks in file names, cameras and lenses, places, album titles and dates (“2019”, “june 2021”, “last summer”), and knows “videos”, “favorites”, “live”, “raw”.`,
  trash: () => `No recently deleted items. What you delete stays here for ${Math.round(state.albums.trashRetentionDays ?? 30)} days, then goes for good.`,
  hidden: () => 'No hidden items.',
  album: () => 'This album is empty. Select photos and use Add to album, or drag them onto it.',
  partner: () => sharedBy(state.place.key.slice(8)) ? 'Nothing shared yet: photos they take (or import) from then on show here.' : 'This library is no longer shared with you.',
  library: () => 'No photos here yet. Drop files anywhere or use Import.',
};

// Recents (also before the album list has arrived) and the smart albums ordered by capture date.
function byCaptureDate(album) {
  if (!album) return true;
  return album.kind === 'smartAlbum' && !['smartAlbumRecentlyAdded', 'smartAlbumRecentlyDeleted'].includes(album.subtype);
}

function oldestFirst() { return localStorage.getItem('shoebox.oldestFirst') === 'true'; }
// Albums show their photos by date (with month headers and the scrubber) unless the user chose
// the order they were put in.
function albumOrder() { return localStorage.getItem('shoebox.albumOrder') === 'true'; }
function isUserAlbum(album) { return album?.kind === 'album' && !state.place; }

// Sort: a menu showing the order in use (a button named after one reads as the action to take).
function updateOrderAction() {
  const album = currentAlbum();
  const userAlbum = isUserAlbum(album);
  $('.order-control').hidden = !(byCaptureDate(album) || userAlbum);
  const select = $('.order-select');
  const choices = [...(userAlbum ? [['album', 'Album Order']] : []), ['newest', 'Newest First'], ['oldest', 'Oldest First']];
  if (select.options.length !== choices.length) {
    select.replaceChildren(...choices.map(([value, label]) => el('option', { value }, label)));
  }
  select.value = userAlbum && albumOrder() ? 'album' : oldestFirst() ? 'oldest' : 'newest';
}
$('.order-select').addEventListener('change', async (event) => {
  const value = event.target.value;
  if (isUserAlbum(currentAlbum())) localStorage.setItem('shoebox.albumOrder', String(value === 'album'));
  if (value !== 'album') localStorage.setItem('shoebox.oldestFirst', String(value === 'oldest'));
  await showAlbum(state.album);
  $('#photos').focus();
});

function updateCount() {
  const count = state.source?.count ?? 0;
  $('.view-count').textContent = `${count.toLocaleString()} item${count === 1 ? '' : 's'}`;
  $('.empty-state').hidden = count > 0;
  $('.empty-state').textContent = emptyStates[state.search ? 'search' : viewKind()]();
  $('#photos').classList.toggle('empty', count === 0);  // the message where the photos would be
  updateOrderAction();
  updateSelection();
}

// The library's change stream, for the fetch shown (if any): its changes, the albums' counts,
// what apps ask, and whether the server can be reached.
export function listenForChanges() {
  closeEvents();
  // The stream catches the grid up from its fetch's snapshot, not the sidebar from the moment its
  // albums were read: those loads run side by side, so an album made between them would only show
  // at the next change. Each time the stream opens (and opens again after the server was away,
  // when a refresh may have failed), the albums are read again.
  setEvents(listen(`/api/events${state.fetch?.id ? `?fetch=${state.fetch.id}` : ''}`, {
    change: (details) => {
      if (details.fetch !== state.fetch?.id) return;
      state.source.applyChange(details);
      viewer.sourceChanged();
      for (const asset of Object.values(details.assets ?? {})) viewer.assetChanged(asset);
      updateCount();
      favoritesChanged(details.fetch);
    },
    library: (details) => {
      scheduleAlbumRefresh();
      viewer.libraryChanged(details);
      if (details.sharedAlbums?.length) sharedAlbumsChanged(details.sharedAlbums);
      // A partner began, changed or stopped sharing (or the person chose where to show it):
      // Recents and a partner's page show other photos now.
      if (details.sharedLibrary?.length) {
        sharedLibraryChanged(() => {
          if (!$('.library-view').hidden && viewKind() === 'library' && !state.place) showAlbum(state.album);
        });
      }
      if (details.partners?.length) {
        partnersChanged(() => {
          const shown = !$('.library-view').hidden;
          if (shown && (viewKind() === 'partner' || (viewKind() === 'library' && !state.place))) showAlbum(state.album);
        });
      }
    },
    // The server cannot bring this grid up to date (its fetch expired, or the connection was
    // away too long): load it again.
    reset: () => { closeEvents(); showAlbum(state.album); },
    prompt: (prompt) => prompts.add(prompt),
    promptSettled: ({ id }) => prompts.remove(id),
    picker: (picker) => showPickerBanner(picker),
    connection: (lost) => {
      connectionLost(lost);
      if (!lost) scheduleAlbumRefresh();
    },
  }));
}

// On a phone the title, the Sort row and the memories would keep a third of the screen: once the
// photos scroll they fold away (the title stays, one line), and come back at the top.
$('#photos').addEventListener('scroll', () => {
  const view = $('.library-view');
  const top = $('#photos').scrollTop;
  if (top > 24) view.classList.add('scrolled');
  else if (top < 2) view.classList.remove('scrolled');
}, { passive: true });
