// The library app: albums in the sidebar, the photos of the chosen one in a virtualized grid
// with date headers, the viewer, import, multi-select actions, live changes, the Privacy page
// and authorization prompts.

import { api, listen } from './api.js';
import { PagedSource, VirtualGrid } from './grid.js';
import { TimelineScrubber } from './scrubber.js';
import { PlacesView } from './places.js';
import { shareDialog, showShares } from './sharing.js';
import { Viewer } from './viewer.js';
import { PhotoEditor } from './editor.js';
import { Importer } from './upload.js';
import { PromptDialog } from './prompt.js';
import { showPrivacy } from './privacy.js';
import { JobIndicator, showJobs } from './jobs.js';
import { el, button, thumbnailURL } from './util.js';
import { ask } from './dialog.js';
import { connectionLost, reportUnhandledFailures } from './status.js';
import { watchCameras } from './cameras.js';
import { showToast } from './toast.js';
import { askDownload, archiveURL, startDownload } from './download.js';

reportUnhandledFailures();

const $ = (selector) => document.querySelector(selector);

const state = {
  album: null,          // the album shown (its localIdentifier), null for Recents
  place: null,          // a place's photos instead: {key: 'IT/Rome' or 'region:S,W,N,E', title}
  albums: { smartAlbums: [], albums: [], folders: [] },
  fetch: null,          // {id, count, sections}
  source: null,
  selected: new Set(),  // localIdentifiers
  all: false,           // Select All: the whole fetch is selected but for `selected`, which then lists the exceptions
  anchor: null,         // index of the last click, for shift-click ranges
  events: null,
};

const grid = new VirtualGrid($('#photos'), {
  thumbnail: (asset) => thumbnailURL('/api/assets', asset, 256, 'fill'),
  isSelected: (index, asset) => isSelected(asset.localIdentifier),
  isDraggable: (index, asset) => !state.all && state.selected.has(asset.localIdentifier),  // selected photos drag onto albums
  note: (asset) => daysLeft(asset),
  onActivate: (index, event) => onCellClick(index, event),
  onToggle: (index) => toggle(index),
  onLongPress: (index) => select(index),  // a phone's way into selecting: then taps toggle
  onOpen: (index) => viewer.open(state.source, index),
  onFirstRowPainted: (milliseconds) => { window.shoebox.firstRowPaintedAt ??= milliseconds; },
  stickyHeader: $('.sticky-month'),
});
const scrubber = new TimelineScrubber($('.scrubber'), grid);

const placesView = new PlacesView($('.places-view'), {
  openPlace: ({ place, title }) => openScope(place, title),
  openRegion: ({ region, title }) => openScope(`region:${region}`, title),
});

const viewer = new Viewer($('.viewer'), {
  favorite: (asset, isFavorite) => api.patch(assetPath(asset), { isFavorite }),
  download: async (asset) => {
    const choice = await askDownload({ title: `Download ${asset.originalFilename}`, several: false });
    if (!choice) return;
    const several = choice.files === 'originals' && asset.originalFileCount > 1;
    startDownload(several
      ? archiveURL({ assets: [asset.localIdentifier], ...choice, name: asset.originalFilename.replace(/\.[^.]*$/, '') })
      : `${assetPath(asset)}/${choice.files === 'originals' ? 'original' : 'render'}?download&location=${choice.location}`);
  },
  remove: async (asset, wholeBurst) => {
    await api.delete(assetPath(asset) + (wholeBurst ? '?wholeBurst=true' : ''));
    offerUndo(`Deleted ${asset.originalFilename}`, [asset.localIdentifier], wholeBurst);
  },
  makeKeyPhoto: (asset) => api.patch(assetPath(asset), { representsBurst: true }),
  restore: async (asset) => { await api.post(`${assetPath(asset)}/restore`); },
  // The editor over the viewer; what it saved or reverted is shown at once (the grid follows by
  // its change events).
  edit: async (asset) => {
    let edited;
    try {
      edited = await editor.edit(asset);
    } catch (error) {
      showToast(`Cannot edit ${asset.originalFilename}: ${error.message}`);
      return;
    }
    if (!edited) return;
    viewer.assetChanged(edited);
    viewer.show();
  },
});
const editor = new PhotoEditor($('.editor'));
// Every view has its URL: an open photo is `#/photo/ID` (in Recents) or `#/album/A/photo/ID`. Opening
// one from the grid adds a history entry, moving to the next photo replaces it, and closing goes
// back, so Back closes the viewer and Forward opens it again; a reload shows the same photo.
let viewerEntry = null;  // 'pushed' when opening the viewer added the history entry
viewer.onShow = (asset) => {
  const target = viewHash(state.album, asset.localIdentifier);
  if (location.hash === target) return;
  if (viewerEntry) history.replaceState(null, '', target);
  else { history.pushState(null, '', target); viewerEntry = 'pushed'; }
};
viewer.onClose = (index) => {
  if (parseHash(location.hash).photo) {
    if (viewerEntry === 'pushed') history.back();
    else history.replaceState(null, '', viewHash(state.album, null));
  }
  viewerEntry = null;
  grid.setActive(index ?? 0);
  $('#photos').focus();
};

// A place's photos are `#/place/KEY` (`IT%2FRome`, `region%3AS%2CW%2CN%2CE`), with `/photo/ID` when one is open.
function viewHash(album, photo, place = state.place?.key) {
  const scopePart = place?.startsWith('memory:') ? `memory/${encodeURIComponent(place.slice(7))}` : place ? `place/${encodeURIComponent(place)}` : '';
  const albumPart = album ? `album/${encodeURIComponent(album)}` : scopePart;
  const photoPart = photo ? `photo/${encodeURIComponent(photo)}` : '';
  return `#/${[albumPart, photoPart].filter(Boolean).join('/')}`;
}

function parseHash(hash) {
  const match = hash.match(/^#\/(?:(album|place|memory)\/([^/]+))?\/?(?:photo\/([^/]+))?$/);
  if (!match) return { album: null, place: null, photo: null };
  const scope = match[2] ? decodeURIComponent(match[2]) : null;
  const place = match[1] === 'place' ? scope : match[1] === 'memory' ? `memory:${scope}` : null;
  return { album: match[1] === 'album' ? scope : null, place, photo: match[3] ? decodeURIComponent(match[3]) : null };
}

// Shows the photos of a place, a map cluster or a memory (`key`), titled `title`, at its own URL.
const knownTitles = new Map();
function openScope(key, title) {
  knownTitles.set(key, title);
  location.hash = viewHash(null, null, key);
}

// "Rome, Italy" for IT/Rome, "Italy" for IT (the browser's names of countries), "On the map" for a region.
const countryNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
function placeTitle(key) {
  if (key.startsWith('region:')) return 'On the map';
  if (key.startsWith('memory:')) return state.memories?.find((memory) => memory.id === key.slice(7))?.title ?? memoryTitle(key.slice(7));
  const [code, city] = key.split(/\/(.*)/s);
  const country = countryNames?.of(code) ?? code;
  return city ? `${city}, ${country}` : country;
}

// Opens the viewer on a photo of the shown fetch, found among the loaded pages or by asking.
// Routing may ask twice while the page loads (its start, then the album list's arrival): a
// photo already shown, or a hash the user has left meanwhile (Escape, Back), opens nothing.
async function openPhoto(id) {
  const stale = () => parseHash(location.hash).photo !== id || (viewer.dialog.open && viewer.asset?.localIdentifier === id);
  if (stale()) return;
  let index = state.source.indexOf?.(id) ?? -1;
  if (index < 0) {
    const found = await api.get(`/api/fetches/${state.fetch.id}/index?asset=${encodeURIComponent(id)}`).catch(() => null);
    index = found?.index ?? -1;
    if (stale()) return;
  }
  if (index < 0) { history.replaceState(null, '', viewHash(state.album, null)); return; }
  viewerEntry = 'route';
  viewer.open(state.source, index);
}

const prompts = new PromptDialog($('.prompt-dialog'));
// An answer changes a client's grants: the Privacy page, when shown, shows the new ones.
prompts.onAnswered = () => { if (location.hash === '#/privacy') showPrivacy($('.client-list')); };
const importer = new Importer($('.uploads'), { album: () => currentAlbum()?.kind === 'album' ? state.album : null });

function assetPath(asset) { return `/api/assets/${encodeURIComponent(asset.localIdentifier)}`; }

// In Recently Deleted: how long until an item is deleted for good.
function daysLeft(asset) {
  if (!asset.trashedDate || currentAlbum()?.subtype !== 'smartAlbumRecentlyDeleted') return null;
  const retention = state.albums.trashRetentionDays ?? 30;
  const left = Math.max(0, Math.ceil(retention - (Date.now() - Date.parse(asset.trashedDate)) / 86_400_000));
  return left === 1 ? '1 day left' : `${left} days left`;
}

function currentAlbum() {
  return [...state.albums.smartAlbums, ...state.albums.albums].find((album) => album.localIdentifier === state.album)
    ?? state.albums.smartAlbums[0];
}

// MARK: Albums

async function loadAlbums() {
  state.albums = await api.get('/api/albums');
  // Empty smart albums are left out, but never the one on screen: unhiding the last hidden
  // photo must not take the Hidden album away from under the person looking at it.
  const shown = state.albums.smartAlbums.filter((album) => album.count > 0 || album.localIdentifier === state.album
    || ['smartAlbumUserLibrary', 'smartAlbumFavorites', 'smartAlbumRecentlyDeleted'].includes(album.subtype));
  const link = (album) => {
    const current = (state.album ?? state.albums.smartAlbums[0]?.localIdentifier) === album.localIdentifier && !state.place
      && !['#/privacy', '#/jobs', '#/places', '#/shares'].includes(location.hash);
    const item = el('button', {
      type: 'button', class: 'album-link', 'aria-current': String(current), 'aria-label': `${album.title}, ${album.count}`,
      onclick: () => { location.hash = `#/album/${encodeURIComponent(album.localIdentifier)}`; },
    }, el('span', {}, album.title), el('span', { class: 'album-count' }, String(album.count)));
    if (album.kind === 'album') acceptDrops(item, album);
    return el('li', {}, item);
  };
  $('.smart-albums').replaceChildren(...shown.map(link));
  $('.user-albums').replaceChildren(...state.albums.albums.map(link));
  const select = $('.add-to-album select');
  select.replaceChildren(el('option', { value: '' }, 'Add to Album…'), ...state.albums.albums.map((album) => el('option', { value: album.localIdentifier }, album.title)));
}

// Dragging selected photos onto an album adds them.
function acceptDrops(item, album) {
  item.addEventListener('dragover', (event) => {
    if (!state.selected.size || [...(event.dataTransfer?.types ?? [])].includes('Files')) return;  // files are imports
    event.preventDefault();
    if (event.dataTransfer) event.dataTransfer.dropEffect = 'copy';
    item.classList.add('drop-hover');
  });
  item.addEventListener('dragleave', () => item.classList.remove('drop-hover'));
  item.addEventListener('drop', async (event) => {
    item.classList.remove('drop-hover');
    if (!state.selected.size || [...(event.dataTransfer?.types ?? [])].includes('Files')) return;
    event.preventDefault();
    await api.post(`/api/albums/${encodeURIComponent(album.localIdentifier)}/add`, { assets: [...state.selected] });
  });
}

// MARK: The grid

// `refreshAlbums`: false on the first load, whose album list is already on its way.
// `place`: a place's photos ({key, title}) rather than the album's; left out, the shown one stays.
async function showAlbum(albumID, { refreshAlbums = true, place } = {}) {
  state.album = albumID;
  if (place !== undefined) state.place = place;
  state.all = false;
  state.selected.clear();
  updateSelection();
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
  else if (state.place) query.place = state.place.key;
  // Views in the order photos were taken open at the newest (as Photos does), unless the user
  // chose oldest first; albums too (by date, with month headers), unless the user chose the
  // album's own order; Recently Added and Deleted keep theirs.
  if (byCaptureDate(album)) query.ascending = oldestFirst();
  else if (isUserAlbum(album) && !albumOrder()) Object.assign(query, { sort: 'creationDate', ascending: oldestFirst() });
  // A search looks in the view it was typed in (Recents: the whole library).
  const search = state.search;
  if (search) query.search = search;
  const fetch = await api.post('/api/fetches', query);
  if (search !== state.search) return;  // typed on meanwhile: a newer fetch is on its way
  state.fetch = fetch;
  showSearchTerms(fetch.search);
  state.source = new PagedSource({
    pageURL: (offset, limit) => `/api/fetches/${state.fetch.id}/assets?offset=${offset}&limit=${limit}`,
    count: state.fetch.count,
    sections: state.fetch.sections,
  });
  grid.setSource(state.source);
  showMemories(isRecents());
  updateCount();
  listenForChanges();
  if (refreshAlbums) loadAlbums();
}

// Memories over the Recents grid: On This Day, trips, years in review (GET /api/memories); × hides one.
async function showMemories(shown) {
  const strip = $('.memories');
  if (!shown) { strip.hidden = true; return; }
  const { memories } = await api.get('/api/memories').catch(() => ({ memories: [] }));
  state.memories = memories;
  strip.hidden = memories.length === 0 || !isRecents();  // the view may have moved on meanwhile
  strip.replaceChildren(...memories.map((memory) => el('div', { class: 'memory-card', role: 'listitem' },
    el('button', { type: 'button', class: 'memory-open', 'aria-label': `${memory.title}, ${memory.subtitle}, ${memory.count} items`,
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

// A memory's title from its identifier, before the list has arrived (a reload on its page).
function memoryTitle(id) {
  if (id.startsWith('year-')) return id.slice(5);
  if (id.startsWith('on-this-day-')) return 'On This Day';
  return 'Trip';
}

const emptyStates = {
  search: () => `Nothing found for “${state.search}”. Search looks in file names, cameras and lenses, places, album titles and dates (“2019”, “june 2021”, “last summer”), and knows “videos”, “favorites”, “live”, “raw”.`,
  trash: () => `No recently deleted items. What you delete stays here for ${Math.round(state.albums.trashRetentionDays ?? 30)} days, then goes for good.`,
  hidden: () => 'No hidden items.',
  album: () => 'This album is empty. Select photos and use Add to album, or drag them onto it.',
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

function listenForChanges() {
  state.events?.close();
  state.events = listen(`/api/events${state.fetch ? `?fetch=${state.fetch.id}` : ''}`, {
    change: (details) => {
      if (details.fetch !== state.fetch?.id) return;
      state.source.applyChange(details);
      viewer.sourceChanged();
      for (const asset of Object.values(details.assets ?? {})) viewer.assetChanged(asset);
      updateCount();
      // The favorites among the fetch may have changed: asked again when Select All needs them.
      if (favoriteSummary?.fetch === details.fetch) favoriteSummary = null;
      if (state.all) loadFavoriteSummary();
      updateFavoriteAction();
    },
    library: (details) => { scheduleAlbumRefresh(); viewer.libraryChanged(details); },
    // The server cannot bring this grid up to date (its fetch expired, or the connection was
    // away too long): load it again.
    reset: () => { state.events?.close(); state.events = null; showAlbum(state.album); },
    prompt: (prompt) => prompts.add(prompt),
    promptSettled: ({ id }) => prompts.remove(id),
    picker: (picker) => showPickerBanner(picker),
    connection: (lost) => connectionLost(lost),
  });
}

let albumRefresh = 0;
function scheduleAlbumRefresh() {
  clearTimeout(albumRefresh);
  albumRefresh = setTimeout(loadAlbums, 300);
}

function showPickerBanner(picker) {
  const banner = el('div', { class: 'banner' },
    el('span', {}, `${picker.client || 'An app'} asks you to pick photos.`),
    el('a', { class: 'button primary', href: picker.url }, 'Open Picker'),
    button('Dismiss', () => banner.remove(), { className: 'link-button' }));
  $('.banner-area').append(banner);
}

// MARK: Selection

function onCellClick(index, event) {
  const asset = state.source.assetAt(index);
  if (!asset) return;
  if (event.shiftKey && state.anchor !== null) {
    const [from, to] = [Math.min(state.anchor, index), Math.max(state.anchor, index)];
    for (let i = from; i <= to; i += 1) {
      const item = state.source.assetAt(i);
      // Select the range: with Select All, by taking it out of the exceptions.
      if (item) { if (state.all) state.selected.delete(item.localIdentifier); else state.selected.add(item.localIdentifier); }
    }
  } else if (event.ctrlKey || event.metaKey || selectionCount() > 0) {
    toggle(index);
    return;
  } else {
    viewer.open(state.source, index);
    return;
  }
  state.anchor = index;
  updateSelection();
}

function toggle(index) {
  const asset = state.source.assetAt(index);
  if (asset) setSelected(index, !isSelected(asset.localIdentifier));
}

// Selects one asset (a long press): selected it stays, where a toggle would take it out.
function select(index) { setSelected(index, true); }

function setSelected(index, selected) {
  const asset = state.source.assetAt(index);
  if (!asset) return;
  // With Select All, `selected` lists what was taken out again.
  if (selected !== state.all) state.selected.add(asset.localIdentifier); else state.selected.delete(asset.localIdentifier);
  state.anchor = index;
  updateSelection();
}

function isSelected(id) { return state.all ? !state.selected.has(id) : state.selected.has(id); }

function selectionCount() {
  return state.all ? Math.max(0, (state.source?.count ?? 0) - state.selected.size) : state.selected.size;
}

function clearSelection() {
  state.all = false;
  state.selected.clear();
  updateSelection();
}

function selectAll() {
  state.all = true;
  state.selected.clear();
  updateSelection();
  loadFavoriteSummary();
}

const plural = (count, one, many = `${one}s`) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

// Favorite is a toggle for the selection too: pressed, and named Unfavorite, when every selected
// asset is a favorite already. After Select All few of them may be loaded: the server says how
// many of the fetch's assets are favorites (favoriteSummary), and the exceptions, which were
// clicked and so are loaded, are counted here.
let favoriteSummary = null;  // {fetch, count, favorites}, for the fetch shown
let summaryRequest = null;

function allSelectedFavorite() {
  const count = selectionCount();
  if (!count) return false;
  const favorites = new Set();
  for (const asset of state.source?.assets.values() ?? []) if (asset.isFavorite) favorites.add(asset.localIdentifier);
  if (!state.all) return [...state.selected].every((id) => favorites.has(id));
  if (favoriteSummary?.fetch !== state.fetch?.id) return false;
  const exceptedFavorites = [...state.selected].filter((id) => favorites.has(id)).length;
  return favoriteSummary.favorites - exceptedFavorites === count;
}

// Asks the server how many of the shown fetch's assets are favorites (with Select All).
function loadFavoriteSummary() {
  const fetch = state.fetch?.id;
  if (!fetch) return Promise.resolve();
  if (summaryRequest?.fetch === fetch) return summaryRequest.promise;
  const promise = api.get(`/api/fetches/${fetch}/summary`)
    .then((summary) => { if (state.fetch?.id === fetch) favoriteSummary = { fetch, ...summary }; })
    .catch(() => { /* unknown: Favorite favorites, as it did */ })
    .finally(() => { if (summaryRequest?.promise === promise) summaryRequest = null; updateFavoriteAction(); });
  summaryRequest = { fetch, promise };
  return promise;
}

function updateFavoriteAction() {
  const control = $('[data-action="favorite"]');
  const all = allSelectedFavorite();
  control.setAttribute('aria-pressed', String(all));
  control.textContent = all ? 'Unfavorite' : 'Favorite';
}

// Favorite or Unfavorite the selection; after Select All, the server is asked first whether all
// of it is a favorite already.
async function favoriteSelection() {
  if (state.all) await loadFavoriteSummary();
  await batch(allSelectedFavorite() ? 'unfavorite' : 'favorite');
}

// What kind of view is shown decides the actions offered.
// What the search was understood as, next to the view's title.
function showSearchTerms(terms) {
  const shown = $('.search-terms');
  shown.hidden = !terms?.length;
  shown.replaceChildren(...(terms ?? []).map((term) => el('span', { class: 'search-term' }, term)));
  if (terms?.length) $('.view-title').textContent = `Search${currentAlbum() && currentAlbum().subtype !== 'smartAlbumUserLibrary' ? ` in ${currentAlbum().title}` : ''}`;
}

// The search field: results as the user types (a quarter of a second after the last key),
// Enter at once, Escape (or emptying it) back to the view.
let searchTimer = null;
function searchFor(text) {
  clearTimeout(searchTimer);
  const search = text.trim();
  if (search === (state.search ?? '')) return;
  state.search = search || null;
  if (parseHash(location.hash).photo) history.replaceState(null, '', viewHash(state.album, null));
  showAlbum(state.album, { refreshAlbums: false });
}
$('.search-field').addEventListener('input', (event) => {
  clearTimeout(searchTimer);
  searchTimer = setTimeout(() => searchFor(event.target.value), 250);
});
$('.search-form').addEventListener('submit', (event) => { event.preventDefault(); searchFor($('.search-field').value); });
$('.search-field').addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && event.target.value) { event.preventDefault(); event.stopPropagation(); event.target.value = ''; searchFor(''); }
  if (event.key === 'ArrowDown' || (event.key === 'Enter' && state.search)) { $('#photos').focus(); }
});
document.addEventListener('keydown', (event) => {
  if (event.key !== '/' || event.target.closest?.('input, textarea, select') || document.querySelector('dialog[open]')) return;
  event.preventDefault();
  $('.search-field').focus();
  $('.search-field').select();
});

function viewKind() {
  const album = currentAlbum();
  if (album?.subtype === 'smartAlbumRecentlyDeleted') return 'trash';
  if (album?.subtype === 'smartAlbumAllHidden') return 'hidden';
  if (album?.kind === 'album') return 'album';
  return 'library';
}

function updateSelection() {
  const count = selectionCount();
  const kind = viewKind();
  $('.selection-actions').hidden = count === 0;
  $('.library-view .toolbar').classList.toggle('selecting', count > 0);
  updateFavoriteAction();
  $('.selection-count').textContent = `${count.toLocaleString()} selected`;
  $('[data-action="restore"]').hidden = kind !== 'trash';
  $('[data-action="favorite"]').hidden = kind === 'trash';
  $('[data-action="hide"]').hidden = kind === 'trash';
  $('[data-action="hide"]').textContent = kind === 'hidden' ? 'Unhide' : 'Hide';
  $('.add-to-album').hidden = kind === 'trash';
  $('[data-action="remove-from-album"]').hidden = kind !== 'album';
  $('[data-action="delete"]').textContent = kind === 'trash' ? 'Delete Forever' : 'Delete';
  $('[data-action="delete"]').setAttribute('aria-label', kind === 'trash' ? 'Delete Forever' : 'Delete');
  const empty = (state.source?.count ?? 0) === 0;
  $('[data-view-action="select-all"]').hidden = empty || (state.all && state.selected.size === 0);
  $('[data-view-action="recover-all"]').hidden = kind !== 'trash' || empty;
  $('[data-view-action="delete-all"]').hidden = kind !== 'trash' || empty;
  $('[data-view-action="rename-album"]').hidden = kind !== 'album';
  $('[data-view-action="download-album"]').hidden = kind !== 'album' || empty;
  $('[data-view-action="share-album"]').hidden = kind !== 'album' || empty;
  $('.selection-actions [data-action="share"]').hidden = ['trash', 'hidden'].includes(kind);
  $('[data-action="download"]').hidden = kind === 'trash';
  $('[data-view-action="delete-album"]').hidden = kind !== 'album';
  grid.schedule(true);
}

// The selection as the batch API takes it: the ids, or the whole fetch but the exceptions.
function selectionBody() {
  return state.all ? { fetch: state.fetch.id, except: [...state.selected] } : { assets: [...state.selected] };
}

// What a batch is doing, for the busy note.
const BATCH_WORDS = {
  favorite: 'Favoriting', unfavorite: 'Unfavoriting', hide: 'Hiding', unhide: 'Unhiding', delete: 'Deleting', restore: 'Recovering',
  purge: 'Deleting for good', addToAlbum: 'Adding to the album', removeFromAlbum: 'Removing from the album',
};
let busy = false;

// A batch on many items takes a while (favoriting 20,000 takes seconds): a note says what is
// being done to how many, and the toolbar's controls wait until it is done.
async function batch(action, extra = {}, body = selectionBody()) {
  if ((!selectionCount() && !body.fetch) || busy) return;
  const count = body.fetch && !state.all ? state.fetch.count : selectionCount();  // Recover All, Delete All: the fetch
  setBusy(`${BATCH_WORDS[action] ?? 'Working on'} ${plural(count, 'item')}…`);
  try {
    // A burst is one item in the grid: deleting, hiding or filing it takes every frame.
    await api.post('/api/assets/batch', { action, wholeBursts: true, ...body, ...extra });
  } finally {
    setBusy(null);
  }
  clearSelection();
}

// `note` while a batch runs (the toolbar's controls disabled), null when it is done.
function setBusy(note) {
  busy = note !== null;
  const toolbar = $('.library-view .toolbar');
  toolbar.setAttribute('aria-busy', String(busy));
  $('.busy-note').hidden = !busy;
  $('.busy-note-text').textContent = note ?? '';
  for (const control of toolbar.querySelectorAll('.view-actions button, .selection-actions button, .selection-actions select')) control.disabled = busy;
}

// After a deletion: a note saying what went to Recently Deleted, with Undo (for chosen items;
// a Select All's deletion says where they are instead).
function offerUndo(message, ids, wholeBursts = true) {
  const days = Math.round(state.albums?.trashRetentionDays ?? 30);
  if (!ids) { showToast(`${message}: in Recently Deleted for ${days} days`); return; }
  showToast(message, {
    action: { label: 'Undo', run: () => api.post('/api/assets/batch', { action: 'restore', wholeBursts, assets: ids }).catch((error) => showToast(error.message)) },
  });
}

async function deleteChosen() {
  const count = selectionCount();
  const ids = state.all ? null : [...state.selected];
  await batch('delete');
  offerUndo(`Deleted ${plural(count, 'item')}`, ids);
}

// Shares the chosen photos (with Select All, every one of the fetch but the exceptions). A link
// shows at most 10,000 chosen photos (an album's link has no such limit): more are said so
// before the dialog, with Share Album offered instead — the album shown when all of it is
// chosen, else a new album of the chosen photos.
async function shareSelection() {
  const count = selectionCount();
  if (!count) return;
  if (count > window.shoebox.shareLimit) {
    const album = viewKind() === 'album' && state.all && state.selected.size === 0 ? currentAlbum() : null;
    const limit = window.shoebox.shareLimit.toLocaleString();
    if (album) {
      const shareAlbum = await ask({ title: `Share ${plural(count, 'photo')}?`, confirm: 'Share Album',
        message: `A link shows at most ${limit} chosen photos. Share the album “${album.title}” instead: its link shows all of them.` });
      if (shareAlbum) await shareDialog({ title: album.title, album: album.localIdentifier });
      return;
    }
    const title = await ask({ title: `Share ${plural(count, 'photo')}?`, confirm: 'Share Album', input: { label: 'New album', value: currentAlbum()?.title ?? 'Shared' },
      message: `A link shows at most ${limit} chosen photos. Put these in a new album and share the album: its link shows all of them.` });
    if (!title) return;
    const made = await api.post('/api/albums', { title, assets: [] });
    await batch('addToAlbum', { album: made.localIdentifier });
    await loadAlbums();
    await shareDialog({ title, album: made.localIdentifier });
    return;
  }
  let assets = [...state.selected];
  if (state.all) {
    assets = [];
    for (let offset = 0; offset < state.fetch.count; offset += 1000) {
      const page = await api.get(`/api/fetches/${state.fetch.id}/assets?offset=${offset}&limit=1000`);
      assets.push(...page.assets.map((asset) => asset.localIdentifier).filter((id) => !state.selected.has(id)));
    }
  }
  await shareDialog({ title: plural(count, 'photo'), assets });
}

// Download: one chosen photo as its file, more as a ZIP made while it downloads.
async function downloadSelection() {
  const count = selectionCount();
  if (!count) return;
  const choice = await askDownload({ title: `Download ${plural(count, 'item')}`, several: count > 1 });
  if (!choice) return;
  if (count === 1 && !state.all) {
    const [id] = state.selected;
    const path = `/api/assets/${encodeURIComponent(id)}/${choice.files === 'originals' ? 'original' : 'render'}`;
    // A Live Photo's or a pair's originals are several files: a ZIP.
    const index = state.source?.indexOf?.(id) ?? -1;
    const asset = index >= 0 ? state.source.assetAt(index) : null;
    // Not loaded (it cannot be: it was chosen in the grid) would fall back to the ZIP.
    const several = choice.files === 'originals' && (!asset || asset.originalFileCount > 1);
    if (!several) { startDownload(`${path}?download&location=${choice.location}`); return; }
  }
  startDownload(state.all
    ? archiveURL({ fetch: state.fetch.id, except: [...state.selected], ...choice, name: viewName() })
    : archiveURL({ assets: [...state.selected], ...choice, name: viewName() }));
}

// What the view shown is called, for an archive's name: a search's words, a place or memory,
// else the album (“Recents”).
function viewName() {
  if (state.search) return `Search “${state.search}”`.slice(0, 100);
  return state.place?.title ?? currentAlbum()?.title ?? null;
}

// F: the selection's favorites (all on, or all off when they all are), else the photo in focus.
async function toggleFavorite() {
  if (selectionCount()) { await favoriteSelection(); return; }
  const asset = state.source?.assetAt(grid.activeIndex);
  if (!asset) return;
  await api.patch(assetPath(asset), { isFavorite: !asset.isFavorite });
  showToast(asset.isFavorite ? `${asset.originalFilename} is no longer a favorite` : `${asset.originalFilename} is a favorite`, { seconds: 3 });
}

// Deleting from an album (not just removing from it) and deleting for good ask first.
async function deleteSelection() {
  const count = selectionCount();
  if (!count) return;
  const kind = viewKind();
  if (kind === 'trash') {
    if (await ask({ title: `Delete ${plural(count, 'item')} forever?`, message: 'This cannot be undone.', confirm: 'Delete Forever', danger: true })) await batch('purge');
  } else if (kind === 'album') {
    const days = Math.round(state.albums.trashRetentionDays ?? 30);
    if (await ask({ title: `Delete ${plural(count, 'item')} from the library?`, message: `They leave every album and stay in Recently Deleted for ${days} days.`, confirm: 'Delete', danger: true })) await deleteChosen();
  } else {
    await deleteChosen();
  }
}

for (const control of document.querySelectorAll('.selection-actions [data-action]')) {
  control.addEventListener('click', () => {
    switch (control.dataset.action) {
      case 'favorite': favoriteSelection(); break;
      case 'hide': batch(viewKind() === 'hidden' ? 'unhide' : 'hide'); break;
      case 'delete': deleteSelection(); break;
      case 'remove-from-album': batch('removeFromAlbum', { album: state.album }); break;
      case 'restore': batch('restore'); break;
      case 'download': downloadSelection(); break;
      case 'share': shareSelection(); break;
      default: clearSelection();
    }
  });
}
for (const control of document.querySelectorAll('[data-view-action]')) {
  control.addEventListener('click', async () => {
    const count = state.source?.count ?? 0;
    const album = currentAlbum();
    switch (control.dataset.viewAction) {
      case 'select-all': selectAll(); break;
      case 'recover-all': await batch('restore', {}, { fetch: state.fetch.id, except: [] }); break;
      case 'delete-all':
        if (await ask({ title: count === 1 ? 'Delete 1 item forever?' : `Delete all ${plural(count, 'item')} forever?`, message: 'Recently Deleted will be empty. This cannot be undone.', confirm: 'Delete All', danger: true })) {
          await batch('purge', {}, { fetch: state.fetch.id, except: [] });
        }
        break;
      case 'rename-album': {
        const title = await ask({ title: 'Rename Album', input: { label: 'Name', value: album.title }, confirm: 'Rename' });
        if (title && title !== album.title) {
          await api.patch(`/api/albums/${encodeURIComponent(album.localIdentifier)}`, { title });
          await loadAlbums();
          $('.view-title').textContent = title;
        }
        break;
      }
      case 'share-album': await shareDialog({ title: album.title, album: album.localIdentifier }); break;
      case 'download-album': {
        const choice = await askDownload({ title: `Download “${album.title}”`, several: true });
        if (choice) startDownload(archiveURL({ fetch: state.fetch.id, ...choice, name: album.title }));
        break;
      }
      case 'delete-album':
        if (await ask({ title: `Delete the album “${album.title}”?`, message: 'Its photos stay in the library.', confirm: 'Delete Album', danger: true })) {
          await api.delete(`/api/albums/${encodeURIComponent(album.localIdentifier)}`);
          location.hash = '#/';
        }
        break;
      default: break;
    }
  });
}
$('.add-to-album select').addEventListener('change', async (event) => {
  const album = event.target.value;
  event.target.value = '';
  if (album) await batch('addToAlbum', { album });
});
$('#photos').addEventListener('keydown', (event) => {
  if (event.key === 'Escape') clearSelection();
  if ((event.key === 'Delete' || event.key === 'Backspace') && selectionCount()) { event.preventDefault(); deleteSelection(); }
  if ((event.key === 'f' || event.key === 'F') && !event.ctrlKey && !event.metaKey && !event.altKey && viewKind() !== 'trash') {
    event.preventDefault();
    toggleFavorite();
  }
  if (event.key === 'a' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    selectAll();
  }
});
$('#photos').addEventListener('dragstart', (event) => {
  const cell = event.target.closest('.cell');
  if (cell && cell.dataset.id && !state.selected.has(cell.dataset.id)) state.selected.add(cell.dataset.id);
  if (!event.dataTransfer) return;
  event.dataTransfer.effectAllowed = 'copy';  // adding to an album copies; the photos stay here
  event.dataTransfer.setData('text/plain', [...state.selected].join('\n'));
});

// MARK: Albums, import, navigation

$('.new-album').addEventListener('click', async () => {
  const title = await ask({ title: 'New Album', input: { label: 'Name' }, confirm: 'Create' });
  if (!title) return;
  const album = await api.post('/api/albums', { title, assets: state.all ? [] : [...state.selected] });
  if (state.all) await api.post('/api/assets/batch', { action: 'addToAlbum', album: album.localIdentifier, ...selectionBody() });
  await loadAlbums();
  location.hash = `#/album/${encodeURIComponent(album.localIdentifier)}`;
});
$('#import-input').addEventListener('change', (event) => { importer.add(event.target.files); event.target.value = ''; });
importer.watchDrops(document.body, $('.drop-target'));
// The albums: a column beside the photos, which ☰ hides and shows. On a phone they are a drawer over
// the photos instead: closed at first, and again once an album is chosen, on Escape or on a tap
// outside it (the scrim); while open, the photos behind it take no taps or focus.
const narrow = window.matchMedia('(max-width: 760px)');
function setSidebarOpen(open, { restoreFocus = false } = {}) {
  const sidebar = $('#sidebar');
  sidebar.hidden = !open;
  $('.sidebar-toggle').setAttribute('aria-expanded', String(open));
  $('.content').inert = open && narrow.matches;
  if (open && narrow.matches) (sidebar.querySelector('.album-link[aria-current="true"]') ?? sidebar.querySelector('.album-link'))?.focus();
  if (restoreFocus) $('.sidebar-toggle').focus();
}
function closeSidebarOnPhone(options) {
  if (narrow.matches && !$('#sidebar').hidden) setSidebarOpen(false, options);
}
$('.sidebar-toggle').addEventListener('click', () => setSidebarOpen($('#sidebar').hidden));
$('.sidebar-scrim').addEventListener('click', () => closeSidebarOnPhone());
$('#sidebar').addEventListener('click', (event) => { if (event.target.closest('.album-link')) closeSidebarOnPhone(); });
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !document.querySelector('dialog[open]')) closeSidebarOnPhone({ restoreFocus: true });
});
// On a phone the title, the Sort row and the memories would keep a third of the screen: once the
// photos scroll they fold away (the title stays, one line), and come back at the top.
$('#photos').addEventListener('scroll', () => {
  const view = $('.library-view');
  const top = $('#photos').scrollTop;
  if (top > 24) view.classList.add('scrolled');
  else if (top < 2) view.classList.remove('scrolled');
}, { passive: true });
// A phone starts with the drawer closed; a window grown wide shows the column again.
setSidebarOpen(!narrow.matches);
narrow.addEventListener('change', () => setSidebarOpen(!narrow.matches));

async function route({ initial = false } = {}) {
  const hash = location.hash;
  $('.jobs-view').hidden = hash !== '#/jobs';
  $('.places-view').hidden = hash !== '#/places';
  $('.shares-view').hidden = hash !== '#/shares';
  if (hash === '#/shares') {
    $('.library-view').hidden = true;
    $('.privacy-view').hidden = true;
    await showShares($('.share-panel'));
    await loadAlbums();
    return;
  }
  if (hash === '#/places') {
    $('.library-view').hidden = true;
    $('.privacy-view').hidden = true;
    state.place = null;
    await placesView.show();
    await loadAlbums();
    $('.places-link').setAttribute('aria-current', 'page');
    return;
  }
  $('.places-link').removeAttribute('aria-current');
  if (hash === '#/jobs') {
    $('.library-view').hidden = true;
    $('.privacy-view').hidden = true;
    delete $('.job-panel').dataset.shown;
    await showJobs($('.job-panel'), jobIndicator);
    await loadAlbums();
    return;
  }
  if (hash === '#/privacy') {
    $('.library-view').hidden = true;
    $('.privacy-view').hidden = false;
    // Prompts arrive by the change events: opened here directly, no album has subscribed yet.
    if (!state.events) listenForChanges();
    await showPrivacy($('.client-list'));
    await loadAlbums();
    return;
  }
  const { album, place, photo } = parseHash(hash);
  const moved = album !== state.album || place !== (state.place?.key ?? null);
  // Another album: the search was the last one's.
  if (!initial && moved && state.search) { state.search = null; $('.search-field').value = ''; }
  // Back and Forward between a photo and its album keep the grid; anything else shows the album.
  if (initial || moved || !state.fetch || $('.library-view').hidden) {
    await showAlbum(album, { refreshAlbums: !initial, place: place ? { key: place, title: knownTitles.get(place) ?? placeTitle(place) } : null });
  }
  if (photo && viewer.asset?.localIdentifier !== photo) await openPhoto(photo);
  else if (!photo && viewer.isOpen) { viewerEntry = null; viewer.dialog.close(); }
}

// ?: the keyboard shortcuts, in a sheet that Escape closes.
const SHORTCUTS = [
  ['The photos', [['← → ↑ ↓', 'Move between photos'], ['Home, End, Page Up, Page Down', 'First, last, a screen up or down'],
    ['[ ]', 'Up a month, down a month (the timeline on the right jumps anywhere)'],
    ['Enter', 'Open the photo'], ['Space', 'Select or deselect'], ['Ctrl+A / ⌘A', 'Select All'], ['F', 'Favorite (the selection, or the photo in focus)'],
    ['Delete', 'Delete (Undo in the note that follows)'], ['Escape', 'Deselect']]],
  ['The viewer', [['← →', 'Previous, next (a movie too)'], ['Shift+← →', 'A movie: back or on 5 seconds'], ['J L', 'A movie: back or on 10 seconds'], ['F', 'Favorite'], ['Delete', 'Delete (Undo in the note)'], ['S', 'Slideshow'], ['E', 'Edit'],
    ['Space', 'Pause or go on with the slideshow'], ['+ − 0', 'Zoom in, out, to fit'], ['I', 'Info'], ['Escape', 'Close']]],
  ['Anywhere', [['/', 'Search'], ['?', 'These shortcuts']]],
];
function showShortcuts() {
  let sheet = document.querySelector('dialog.shortcuts');
  if (!sheet) {
    sheet = el('dialog', { class: 'shortcuts', 'aria-labelledby': 'shortcuts-title' },
      el('h2', { id: 'shortcuts-title' }, 'Keyboard Shortcuts'),
      ...SHORTCUTS.map(([title, rows]) => el('section', {}, el('h3', {}, title),
        el('dl', {}, ...rows.flatMap(([keys, what]) => [el('dt', {}, el('kbd', {}, keys)), el('dd', {}, what)])))),
      el('form', { method: 'dialog' }, el('button', { class: 'button primary', value: 'close' }, 'Done')));
    document.body.append(sheet);
  }
  if (!sheet.open) sheet.showModal();
}
document.addEventListener('keydown', (event) => {
  if (event.key !== '?' || event.target.closest?.('input, textarea, select') || document.querySelector('dialog[open]:not(.shortcuts)')) return;
  event.preventDefault();
  showShortcuts();
});

window.addEventListener('hashchange', () => { closeSidebarOnPhone(); route(); });  // e.g. a New Album made in the drawer
// Background work: the indicator in the top bar; on the Background Work page, the list follows it.
const jobIndicator = new JobIndicator($('.jobs-indicator'));
jobIndicator.onChange = (listing) => { if (location.hash === '#/jobs') showJobs($('.job-panel'), jobIndicator, listing); };
// The first load asks for the albums, the prompts and the photos at once; only an album's page
// waits for the albums, which say what kind of album it is.
(async () => {
  watchCameras();  // the cameras this browser offers pickers
  const albums = loadAlbums();
  const waiting = api.get('/api/prompts');
  if (/^#\/album\//.test(location.hash)) await albums;
  await route({ initial: true });
  await albums;
  for (const prompt of await waiting) prompts.add(prompt);
  jobIndicator.refresh();
  $('#photos').focus();
})();

// For tests and benchmarks: how many grid cells are in the DOM, and the first paint.
// shareLimit: the most chosen photos a link shows (the server's limit; a test lowers it).
window.shoebox = { grid, state, renderedCells: () => grid.renderedCellCount, firstRowPaintedAt: null, shareLimit: 10_000 };
