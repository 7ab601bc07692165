// The library app: albums in the sidebar, the photos of the chosen one in a virtualized grid
// with date headers, the viewer, import, multi-select actions, live changes, the Privacy page
// and authorization prompts.

import { api, listen } from './api.js';
import { PagedSource, VirtualGrid } from './grid.js';
import { Viewer } from './viewer.js';
import { Importer } from './upload.js';
import { PromptDialog } from './prompt.js';
import { showPrivacy } from './privacy.js';
import { JobIndicator, showJobs } from './jobs.js';
import { el, button, thumbnailURL } from './util.js';

const $ = (selector) => document.querySelector(selector);

const state = {
  album: null,          // the album shown (its localIdentifier), null for Recents
  albums: { smartAlbums: [], albums: [], folders: [] },
  fetch: null,          // {id, count, sections}
  source: null,
  selected: new Set(),  // localIdentifiers
  anchor: null,         // index of the last click, for shift-click ranges
  events: null,
};

const grid = new VirtualGrid($('#photos'), {
  thumbnail: (asset) => thumbnailURL('/api/assets', asset, 256, 'fill'),
  isSelected: (index, asset) => state.selected.has(asset.localIdentifier),
  isDraggable: (index, asset) => state.selected.has(asset.localIdentifier),  // selected photos drag onto albums
  onActivate: (index, event) => onCellClick(index, event),
  onToggle: (index) => toggle(index),
  onOpen: (index) => viewer.open(state.source, index),
  onFirstRowPainted: (milliseconds) => { window.shoebox.firstRowPaintedAt ??= milliseconds; },
});

const viewer = new Viewer($('.viewer'), {
  favorite: (asset, isFavorite) => api.patch(assetPath(asset), { isFavorite }),
  remove: async (asset) => { await api.delete(assetPath(asset)); },
  restore: async (asset) => { await api.post(`${assetPath(asset)}/restore`); },
});
viewer.onClose = (index) => { grid.setActive(index ?? 0); $('#photos').focus(); };

const prompts = new PromptDialog($('.prompt-dialog'));
// An answer changes a client's grants: the Privacy page, when shown, shows the new ones.
prompts.onAnswered = () => { if (location.hash === '#/privacy') showPrivacy($('.client-list')); };
const importer = new Importer($('.uploads'), { album: () => currentAlbum()?.kind === 'album' ? state.album : null });

function assetPath(asset) { return `/api/assets/${encodeURIComponent(asset.localIdentifier)}`; }

function currentAlbum() {
  return [...state.albums.smartAlbums, ...state.albums.albums].find((album) => album.localIdentifier === state.album)
    ?? state.albums.smartAlbums[0];
}

// MARK: Albums

async function loadAlbums() {
  state.albums = await api.get('/api/albums');
  const shown = state.albums.smartAlbums.filter((album) => album.count > 0 || ['smartAlbumUserLibrary', 'smartAlbumFavorites', 'smartAlbumRecentlyDeleted'].includes(album.subtype));
  const link = (album) => {
    const current = (state.album ?? state.albums.smartAlbums[0]?.localIdentifier) === album.localIdentifier && !['#/privacy', '#/jobs'].includes(location.hash);
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
  select.replaceChildren(el('option', { value: '' }, 'Choose…'), ...state.albums.albums.map((album) => el('option', { value: album.localIdentifier }, album.title)));
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
async function showAlbum(albumID, { refreshAlbums = true } = {}) {
  state.album = albumID;
  state.selected.clear();
  updateSelection();
  $('.library-view').hidden = false;
  $('.privacy-view').hidden = true;
  $('.jobs-view').hidden = true;
  const album = currentAlbum();
  $('.view-title').textContent = album?.title ?? 'Recents';
  const query = album && album.subtype !== 'smartAlbumUserLibrary' ? { album: album.localIdentifier } : {};
  state.fetch = await api.post('/api/fetches', query);
  state.source = new PagedSource({
    pageURL: (offset, limit) => `/api/fetches/${state.fetch.id}/assets?offset=${offset}&limit=${limit}`,
    count: state.fetch.count,
    sections: state.fetch.sections,
  });
  grid.setSource(state.source);
  updateCount();
  listenForChanges();
  if (refreshAlbums) loadAlbums();
}

function updateCount() {
  const count = state.source?.count ?? 0;
  $('.view-count').textContent = `${count.toLocaleString()} item${count === 1 ? '' : 's'}`;
  $('.empty-state').hidden = count > 0;
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
      updateFavoriteAction();
    },
    library: (details) => { scheduleAlbumRefresh(); viewer.libraryChanged(details); },
    // The server cannot bring this grid up to date (its fetch expired, or the connection was
    // away too long): load it again.
    reset: () => { state.events?.close(); state.events = null; showAlbum(state.album); },
    prompt: (prompt) => prompts.add(prompt),
    promptSettled: ({ id }) => prompts.remove(id),
    picker: (picker) => showPickerBanner(picker),
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
    for (let i = from; i <= to; i += 1) { const item = state.source.assetAt(i); if (item) state.selected.add(item.localIdentifier); }
  } else if (event.ctrlKey || event.metaKey || state.selected.size > 0) {
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
  if (!asset) return;
  if (state.selected.has(asset.localIdentifier)) state.selected.delete(asset.localIdentifier);
  else state.selected.add(asset.localIdentifier);
  state.anchor = index;
  updateSelection();
}

// Favorite is a toggle for the selection too: pressed (and unfavoriting) when every selected
// asset is a favorite already.
function allSelectedFavorite() {
  if (!state.selected.size) return false;
  const favorites = new Set();
  for (const asset of state.source?.assets.values() ?? []) if (asset.isFavorite) favorites.add(asset.localIdentifier);
  return [...state.selected].every((id) => favorites.has(id));
}

function updateFavoriteAction() {
  $('[data-action="favorite"]').setAttribute('aria-pressed', String(allSelectedFavorite()));
}

function updateSelection() {
  const count = state.selected.size;
  $('.selection-actions').hidden = count === 0;
  updateFavoriteAction();
  $('.selection-count').textContent = `${count} selected`;
  const trash = currentAlbum()?.subtype === 'smartAlbumRecentlyDeleted';
  $('[data-action="restore"]').hidden = !trash;
  $('[data-action="delete"]').textContent = trash ? 'Delete Forever' : 'Delete';
  $('[data-action="delete"]').setAttribute('aria-label', trash ? 'Delete Forever' : 'Delete');
  grid.schedule(true);
}

async function batch(action, extra = {}) {
  if (!state.selected.size) return;
  await api.post('/api/assets/batch', { action, assets: [...state.selected], ...extra });
  state.selected.clear();
  updateSelection();
}

for (const control of document.querySelectorAll('.selection-actions [data-action]')) {
  control.addEventListener('click', () => {
    const trash = currentAlbum()?.subtype === 'smartAlbumRecentlyDeleted';
    switch (control.dataset.action) {
      case 'favorite': batch(allSelectedFavorite() ? 'unfavorite' : 'favorite'); break;
      case 'hide': batch(currentAlbum()?.subtype === 'smartAlbumAllHidden' ? 'unhide' : 'hide'); break;
      case 'delete': batch(trash ? 'purge' : 'delete'); break;
      case 'restore': batch('restore'); break;
      default: state.selected.clear(); updateSelection();
    }
  });
}
$('.add-to-album select').addEventListener('change', async (event) => {
  const album = event.target.value;
  event.target.value = '';
  if (album) await batch('addToAlbum', { album });
});
$('#photos').addEventListener('keydown', (event) => {
  if (event.key === 'Escape') { state.selected.clear(); updateSelection(); }
  if ((event.key === 'Delete' || event.key === 'Backspace') && state.selected.size) { event.preventDefault(); batch('delete'); }
  if (event.key === 'a' && (event.ctrlKey || event.metaKey)) {
    event.preventDefault();
    for (const asset of state.source.assets.values()) state.selected.add(asset.localIdentifier);
    updateSelection();
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

$('.new-album').addEventListener('click', () => {
  const dialog = $('.album-dialog');
  dialog.querySelector('input').value = '';
  dialog.showModal();
});
$('.album-dialog').addEventListener('close', async () => {
  const dialog = $('.album-dialog');
  const title = dialog.querySelector('input').value.trim();
  if (dialog.returnValue !== 'create' || !title) return;
  const album = await api.post('/api/albums', { title, assets: [...state.selected] });
  await loadAlbums();
  location.hash = `#/album/${encodeURIComponent(album.localIdentifier)}`;
});
$('#import-input').addEventListener('change', (event) => { importer.add(event.target.files); event.target.value = ''; });
importer.watchDrops(document.body, $('.drop-target'));
$('.sidebar-toggle').addEventListener('click', (event) => {
  const sidebar = $('#sidebar');
  sidebar.hidden = !sidebar.hidden;
  event.currentTarget.setAttribute('aria-expanded', String(!sidebar.hidden));
});
// On a phone the albums cover the photos: closed at first, and again once one is chosen.
const narrow = window.matchMedia('(max-width: 760px)');
function closeSidebarOnPhone() {
  if (!narrow.matches) return;
  $('#sidebar').hidden = true;
  $('.sidebar-toggle').setAttribute('aria-expanded', 'false');
}
closeSidebarOnPhone();
$('#sidebar').addEventListener('click', (event) => { if (event.target.closest('.album-link')) closeSidebarOnPhone(); });

async function route({ initial = false } = {}) {
  const hash = location.hash;
  $('.jobs-view').hidden = hash !== '#/jobs';
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
  const match = hash.match(/^#\/album\/(.+)$/);
  await showAlbum(match ? decodeURIComponent(match[1]) : null, { refreshAlbums: !initial });
}

window.addEventListener('hashchange', () => route());
// Background work: the indicator in the top bar; on the Background Work page, the list follows it.
const jobIndicator = new JobIndicator($('.jobs-indicator'));
jobIndicator.onChange = (listing) => { if (location.hash === '#/jobs') showJobs($('.job-panel'), jobIndicator, listing); };
// The first load asks for the albums, the prompts and the photos at once; only an album's page
// waits for the albums, which say what kind of album it is.
(async () => {
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
window.shoebox = { grid, state, renderedCells: () => grid.renderedCellCount, firstRowPaintedAt: null };
