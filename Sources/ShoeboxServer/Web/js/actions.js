// What the toolbar and the keyboard do to the selection (Favorite, Hide, Delete, Add to Album,
// Share, Download…) and to the view (Select All, Recover All, Delete All; an album's Rename,
// Share, Download, Delete), a batch at a time.

import { shareWithPeople, addToSharedAlbum } from './shared-albums.js';
import { api } from './api.js';
import { ask } from './dialog.js';
import { shareDialog } from './sharing.js';
import { showToast } from './toast.js';
import { askDownload, archiveURL, startDownload } from './download.js';
import { adjustDate, adjustLocation, adjustKeywords, adjustRating, adjustCaption } from './describe.js';
import { $ } from './util.js';
import { grid, assetPath, offerUndo } from './photos.js';
import { allSelectedFavorite, loadFavoriteSummary, selectionHasTheirs, selectionIsShared } from './selection.js';
import { moveAssets } from './shared-library.js';
import { loadAlbums } from './sidebar.js';
import {
  state, currentAlbum, viewKind, selectionCount, selectionBody, clearSelection, selectAll, includeDragged,
} from './library-state.js';

const plural = (count, one, many = `${one}s`) => `${count.toLocaleString()} ${count === 1 ? one : many}`;

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

// Select All: the server says how many of the fetch are favorites, for Favorite's name.
function selectEverything() {
  selectAll();
  loadFavoriteSummary();
}

// Favorite or Unfavorite the selection; after Select All, the server is asked first whether all
// of it is a favorite already.
async function favoriteSelection() {
  if (state.all) await loadFavoriteSummary();
  await batch(allSelectedFavorite() ? 'unfavorite' : 'favorite');
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
  if (selectionHasTheirs()) return;  // a partner's photos are not changed here
  if (selectionCount()) { await favoriteSelection(); return; }
  const asset = state.source?.assetAt(grid.activeIndex);
  if (!asset || asset.sharedBy) return;
  await api.patch(assetPath(asset), { isFavorite: !asset.isFavorite });
  showToast(asset.isFavorite ? `${asset.originalFilename} is no longer a favorite` : `${asset.originalFilename} is a favorite`, { seconds: 3 });
}

// Deleting from an album (not just removing from it) and deleting for good ask first.
async function deleteSelection() {
  if (selectionHasTheirs()) return;
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

// Moves the chosen photos into the Shared Library, or (when all are its) back to the person's own.
async function moveSelection() {
  const chosen = [...state.selected];
  try {
    await moveAssets(selectionIsShared() ? 'personal' : 'shared', chosen);
    clearSelection();
  } catch (error) {
    showToast(error.message);
  }
}

// The toolbar's controls, the grid's keys (Escape, Delete, F, Ctrl+A) and its drags.
export function watchActions() {
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
        case 'move-library': moveSelection(); break;
        default: clearSelection();
      }
    });
  }
  for (const control of document.querySelectorAll('[data-view-action]')) {
    control.addEventListener('click', async () => {
      const count = state.source?.count ?? 0;
      const album = currentAlbum();
      switch (control.dataset.viewAction) {
        case 'select-all': selectEverything(); break;
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
        case 'share-with-people': await shareWithPeople(album.localIdentifier, album.title); break;
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
  $('.adjust-selection select').addEventListener('change', async (event) => {
    const what = event.target.value;
    event.target.value = '';
    if (!what || !selectionCount()) return;
    const selection = selectionBody();
    const count = selectionCount();
    const chosen = [...(state.source?.assets.values() ?? [])].filter((asset) => state.all ? !state.selected.has(asset.localIdentifier) : state.selected.has(asset.localIdentifier));
    const earliest = state.all ? null : chosen.map((asset) => asset.localCreationDate).sort()[0] ?? null;
    const dialogs = { date: adjustDate, location: adjustLocation, keywords: adjustKeywords, rating: adjustRating, caption: adjustCaption };
    try {
      if (await dialogs[what](selection, { count, earliest })) clearSelection();
    } catch (error) {
      showToast(error.message);
    }
  });
  $('.add-to-album select').addEventListener('change', async (event) => {
    const album = event.target.value;
    event.target.value = '';
    if (album.startsWith('shared:')) {
      // A shared album: the chosen photos (Select All's whole set is not sent one by one).
      if (state.all) await ask({ title: 'Choose the photos', message: 'Select the photos to add to a shared album one by one (Select All is not offered here).', confirm: 'OK', cancel: 'Close' });
      else await addToSharedAlbum(album.slice('shared:'.length), [...state.selected]);
    } else if (album) await batch('addToAlbum', { album });
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
      selectEverything();
    }
  });
  $('#photos').addEventListener('dragstart', (event) => {
    const cell = event.target.closest('.cell');
    if (cell && cell.dataset.id && !state.selected.has(cell.dataset.id)) includeDragged(cell.dataset.id);
    if (!event.dataTransfer) return;
    event.dataTransfer.effectAllowed = 'copy';  // adding to an album copies; the photos stay here
    event.dataTransfer.setData('text/plain', [...state.selected].join('\n'));
  });
}
