// The photos of the view shown: the virtualized grid with its timeline scrubber, and the viewer
// (with the editor) over it. A click selects or opens; an open photo has its URL.

import { api } from './api.js';
import { VirtualGrid } from './grid.js';
import { TimelineScrubber } from './scrubber.js';
import { Viewer } from './viewer.js';
import { PhotoEditor } from './editor.js';
import { showToast } from './toast.js';
import { askDownload, archiveURL, startDownload } from './download.js';
import { $, thumbnailURL } from './util.js';
import { viewHash, parseHash } from './addresses.js';
import {
  state, currentAlbum, isSelected, selectionCount, selectRange, setSelected, toggleSelected,
} from './library-state.js';

export function assetPath(asset) { return `/api/assets/${encodeURIComponent(asset.localIdentifier)}`; }

export const grid = new VirtualGrid($('#photos'), {
  thumbnail: (asset) => thumbnailURL('/api/assets', asset, 256, 'fill'),
  isSelected: (index, asset) => isSelected(asset.localIdentifier),
  isDraggable: (index, asset) => !state.all && state.selected.has(asset.localIdentifier),  // selected photos drag onto albums
  note: (asset) => daysLeft(asset),
  onActivate: (index, event) => onCellClick(index, event),
  onToggle: (index) => toggleSelected(index),
  onLongPress: (index) => setSelected(index, true),  // a phone's way into selecting: then taps toggle
  onOpen: (index) => viewer.open(state.source, index),
  onFirstRowPainted: (milliseconds) => { window.shoebox.firstRowPaintedAt ??= milliseconds; },
  stickyHeader: $('.sticky-month'),
});
new TimelineScrubber($('.scrubber'), grid);

// In Recently Deleted: how long until an item is deleted for good.
function daysLeft(asset) {
  if (!asset.trashedDate || currentAlbum()?.subtype !== 'smartAlbumRecentlyDeleted') return null;
  const retention = state.albums.trashRetentionDays ?? 30;
  const left = Math.max(0, Math.ceil(retention - (Date.now() - Date.parse(asset.trashedDate)) / 86_400_000));
  return left === 1 ? '1 day left' : `${left} days left`;
}

// Once something is selected a click adds to the selection (or takes from it) rather than opening.
function onCellClick(index, event) {
  const asset = state.source.assetAt(index);
  if (!asset) return;
  if (event.shiftKey && state.anchor !== null) selectRange(index);
  else if (event.ctrlKey || event.metaKey || selectionCount() > 0) toggleSelected(index);
  else viewer.open(state.source, index);
}

export const viewer = new Viewer($('.viewer'), {
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

// After a deletion: a note saying what went to Recently Deleted, with Undo (for chosen items;
// a Select All's deletion says where they are instead).
export function offerUndo(message, ids, wholeBursts = true) {
  const days = Math.round(state.albums?.trashRetentionDays ?? 30);
  if (!ids) { showToast(`${message}: in Recently Deleted for ${days} days`); return; }
  showToast(message, {
    action: { label: 'Undo', run: () => api.post('/api/assets/batch', { action: 'restore', wholeBursts, assets: ids }).catch((error) => showToast(error.message)) },
  });
}

// An open photo is `#/photo/ID` (in Recents) or `#/album/A/photo/ID`. Opening one from the grid
// adds a history entry, moving to the next photo replaces it, and closing goes back, so Back
// closes the viewer and Forward opens it again; a reload shows the same photo.
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

// Opens the viewer on a photo of the shown fetch, found among the loaded pages or by asking.
// Routing may ask twice while the page loads (its start, then the album list's arrival): a
// photo already shown, or a hash the user has left meanwhile (Escape, Back), opens nothing.
export async function openPhoto(id) {
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

// The URL left the photo (Back): the viewer closes without a history step of its own.
export function closeViewer() {
  viewerEntry = null;
  viewer.dialog.close();
}
