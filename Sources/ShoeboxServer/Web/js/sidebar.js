// The sidebar: the albums and smart albums with their counts (selected photos dropped on an album
// are added to it) and New Album; beside the photos, or a drawer over them on a phone.

import { api } from './api.js';
import { ask } from './dialog.js';
import { $, el } from './util.js';
import { state, selectionBody, setAlbums } from './library-state.js';
import { loadSharedAlbums, contributableSharedAlbums } from './shared-albums.js';
import { loadPartners } from './partners.js';

// Loads overlap (the first load, a burst's refresh, a view's own): only the newest request's
// answer is shown, so a slow older answer never puts back albums as they were before a change.
// An older load waits for the newest one, so whoever awaits any load finds the albums shown.
let albumLoads = 0;
let newestLoad = null;
export function loadAlbums() {
  const load = ++albumLoads;
  newestLoad = (async () => {
    const [albums, keywords] = await Promise.all([api.get('/api/albums'), api.get('/api/keywords').catch(() => null), loadSharedAlbums(), loadPartners()]);
    if (load === albumLoads) {
      showAlbums(albums);
      if (keywords) showKeywords(keywords.keywords);
    }
    else await newestLoad;
  })();
  return newestLoad;
}

function showAlbums(albums) {
  setAlbums(albums);
  // Empty smart albums are left out, but never the one on screen: unhiding the last hidden
  // photo must not take the Hidden album away from under the person looking at it.
  const shown = state.albums.smartAlbums.filter((album) => album.count > 0 || album.localIdentifier === state.album
    || ['smartAlbumUserLibrary', 'smartAlbumFavorites', 'smartAlbumRecentlyDeleted'].includes(album.subtype));
  const link = (album) => {
    const current = (state.album ?? state.albums.smartAlbums[0]?.localIdentifier) === album.localIdentifier && !state.place
      && !['#/privacy', '#/jobs', '#/places', '#/shares', '#/backup'].includes(location.hash) && !location.hash.startsWith('#/shared/');
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
  const shared = contributableSharedAlbums();
  select.replaceChildren(el('option', { value: '' }, 'Add to Album…'), ...state.albums.albums.map((album) => el('option', { value: album.localIdentifier }, album.title)),
    shared.length ? el('optgroup', { label: 'Shared Albums' }, ...shared.map((album) => el('option', { value: `shared:${album.localIdentifier}` }, album.title))) : null);
}

// The Keywords view: each keyword with its count, its photos at #/keyword/K; the list is left
// out while no photo has one.
function showKeywords(keywords) {
  const list = $('.keyword-list');
  $('.keywords-heading').hidden = list.hidden = keywords.length === 0;
  const shown = state.place?.key.startsWith('keyword:') ? state.place.key.slice(8) : null;
  list.replaceChildren(...keywords.map(({ keyword, count }) => el('li', {}, el('a', {
    class: 'album-link', href: `#/keyword/${encodeURIComponent(keyword)}`, 'aria-current': String(shown?.toLowerCase() === keyword.toLowerCase()),
    'aria-label': `${keyword}, ${count}`,
  }, el('span', {}, keyword), el('span', { class: 'album-count' }, String(count))))));
}

// The counts change with every import or deletion: a burst of changes loads the albums once.
// Nobody asked for this load: when the server cannot be reached, the connection banner says so,
// and the albums are loaded again once the change stream is back (library-view.js).
let albumRefresh = 0;
export function scheduleAlbumRefresh() {
  clearTimeout(albumRefresh);
  albumRefresh = setTimeout(() => loadAlbums().catch(() => {}), 300);
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

$('.new-album').addEventListener('click', async () => {
  const title = await ask({ title: 'New Album', input: { label: 'Name' }, confirm: 'Create' });
  if (!title) return;
  const album = await api.post('/api/albums', { title, assets: state.all ? [] : [...state.selected] });
  if (state.all) await api.post('/api/assets/batch', { action: 'addToAlbum', album: album.localIdentifier, ...selectionBody() });
  await loadAlbums();
  location.hash = `#/album/${encodeURIComponent(album.localIdentifier)}`;
});

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
export function closeSidebarOnPhone(options) {
  if (narrow.matches && !$('#sidebar').hidden) setSidebarOpen(false, options);
}
$('.sidebar-toggle').addEventListener('click', () => setSidebarOpen($('#sidebar').hidden));
$('.sidebar-scrim').addEventListener('click', () => closeSidebarOnPhone());
$('#sidebar').addEventListener('click', (event) => { if (event.target.closest('.album-link')) closeSidebarOnPhone(); });
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !document.querySelector('dialog[open]')) closeSidebarOnPhone({ restoreFocus: true });
});
// A phone starts with the drawer closed; a window grown wide shows the column again.
setSidebarOpen(!narrow.matches);
narrow.addEventListener('change', () => setSidebarOpen(!narrow.matches));
