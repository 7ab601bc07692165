// The library page's state: what it shows (an album, or a place's, a memory's or a search's
// photos), the fetch behind the grid, the albums and the selection. It changes only through the
// functions here, so that what shows the selection (the toolbar, the grid's checkmarks) hears of
// every change to it, and so that the views' modules need not reach into one another.

export const state = {
  album: null,          // the album shown (its localIdentifier), null for Recents
  place: null,          // a place's photos instead: {key: 'IT/Rome' or 'region:S,W,N,E', title}
  search: null,         // the words searched for in the view, null for none
  albums: { smartAlbums: [], albums: [], folders: [] },
  memories: null,       // the memories over Recents, once they have come
  fetch: null,          // {id, count, sections}
  source: null,
  selected: new Set(),  // localIdentifiers
  all: false,           // Select All: the whole fetch is selected but for `selected`, which then lists the exceptions
  anchor: null,         // index of the last click, for shift-click ranges
  events: null,
};

// MARK: What is shown

export function currentAlbum() {
  return [...state.albums.smartAlbums, ...state.albums.albums].find((album) => album.localIdentifier === state.album)
    ?? state.albums.smartAlbums[0];
}

// What kind of view is shown decides the actions offered and what an empty one says.
export function viewKind() {
  if (state.place?.key.startsWith('partner:')) return 'partner';
  const album = currentAlbum();
  if (album?.subtype === 'smartAlbumRecentlyDeleted') return 'trash';
  if (album?.subtype === 'smartAlbumAllHidden') return 'hidden';
  if (album?.kind === 'album') return 'album';
  return 'library';
}

export function setAlbums(albums) { state.albums = albums; }
export function setMemories(memories) { state.memories = memories; }
export function setSearch(search) { state.search = search; }
export function setPlace(place) { state.place = place; }

// Another album (or, with `place`, a place's photos; left out, the shown place stays): the
// selection was the last view's.
export function setScope(album, place) {
  state.album = album;
  if (place !== undefined) state.place = place;
  state.all = false;
  state.selected.clear();
  selectionChanged();
}

export function setFetch(fetch, source) {
  state.fetch = fetch;
  state.source = source;
}

// The change stream of the view shown; the last one's is closed first.
export function closeEvents() {
  state.events?.close();
  state.events = null;
}
export function setEvents(events) { state.events = events; }

// MARK: The selection

const watchers = [];

// `watcher()` is called after every change to the selection.
export function watchSelection(watcher) { watchers.push(watcher); }

function selectionChanged() {
  for (const watcher of watchers) watcher();
}

export function isSelected(id) { return state.all ? !state.selected.has(id) : state.selected.has(id); }

export function selectionCount() {
  return state.all ? Math.max(0, (state.source?.count ?? 0) - state.selected.size) : state.selected.size;
}

// The selection as the batch API takes it: the ids, or the whole fetch but the exceptions.
export function selectionBody() {
  return state.all ? { fetch: state.fetch.id, except: [...state.selected] } : { assets: [...state.selected] };
}

// Shift-click: everything from the last click to `index`.
export function selectRange(index) {
  const [from, to] = [Math.min(state.anchor, index), Math.max(state.anchor, index)];
  for (let i = from; i <= to; i += 1) {
    const item = state.source.assetAt(i);
    // Select the range: with Select All, by taking it out of the exceptions.
    if (item) { if (state.all) state.selected.delete(item.localIdentifier); else state.selected.add(item.localIdentifier); }
  }
  state.anchor = index;
  selectionChanged();
}

export function setSelected(index, selected) {
  const asset = state.source.assetAt(index);
  if (!asset) return;
  // With Select All, `selected` lists what was taken out again.
  if (selected !== state.all) state.selected.add(asset.localIdentifier); else state.selected.delete(asset.localIdentifier);
  state.anchor = index;
  selectionChanged();
}

export function toggleSelected(index) {
  const asset = state.source.assetAt(index);
  if (asset) setSelected(index, !isSelected(asset.localIdentifier));
}

export function clearSelection() {
  state.all = false;
  state.selected.clear();
  selectionChanged();
}

export function selectAll() {
  state.all = true;
  state.selected.clear();
  selectionChanged();
}

// A photo dragged from the grid goes with the selection. Nothing is redrawn: the drag is under way.
export function includeDragged(id) { state.selected.add(id); }
