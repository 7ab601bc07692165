// What the toolbar offers for the selection and the view shown, kept in step with every change
// to the selection (library-state.js tells it), and whether Favorite is Unfavorite.

import { api } from './api.js';
import { $ } from './util.js';
import { grid } from './photos.js';
import { state, viewKind, selectionCount, watchSelection } from './library-state.js';
import { inSharedLibrary } from './shared-library.js';

// Whether what is selected holds a partner's photo (their page: all of it).
export function selectionHasTheirs() {
  if (viewKind() === 'partner') return true;
  if (state.all) return false;
  for (const asset of state.source?.assets.values() ?? []) if (asset.sharedBy && state.selected.has(asset.localIdentifier)) return true;
  return false;
}

// Whether every chosen photo is the Shared Library's (loaded ones: a selection is clicked, so loaded).
export function selectionIsShared() {
  if (state.all || state.selected.size === 0) return false;
  let shared = 0;
  for (const asset of state.source?.assets.values() ?? []) {
    if (!state.selected.has(asset.localIdentifier)) continue;
    if (asset.library !== 'shared') return false;
    shared += 1;
  }
  return shared > 0;
}

export function updateSelection() {
  const count = selectionCount();
  const kind = viewKind();
  $('.selection-actions').hidden = count === 0;
  $('.library-view .toolbar').classList.toggle('selecting', count > 0);
  updateFavoriteAction();
  $('.selection-count').textContent = `${count.toLocaleString()} selected`;
  // A partner's photos are theirs: downloaded, not changed (their page, or any chosen in Recents).
  const theirs = selectionHasTheirs();
  $('[data-action="restore"]').hidden = kind !== 'trash';
  $('[data-action="favorite"]').hidden = kind === 'trash' || theirs;
  $('[data-action="hide"]').hidden = kind === 'trash' || theirs;
  $('[data-action="hide"]').textContent = kind === 'hidden' ? 'Unhide' : 'Hide';
  $('.add-to-album').hidden = kind === 'trash' || theirs;
  $('.adjust-selection').hidden = kind === 'trash' || theirs;
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
  $('[data-view-action="share-with-people"]').hidden = kind !== 'album';
  $('.selection-actions [data-action="share"]').hidden = ['trash', 'hidden'].includes(kind) || theirs;
  $('[data-action="delete"]').hidden = theirs;
  // In the Shared Library: chosen photos move in, or (all of them its) back out.
  const move = $('[data-action="move-library"]');
  move.hidden = !inSharedLibrary() || theirs || state.all || ['trash', 'hidden'].includes(kind);
  move.textContent = selectionIsShared() ? 'Move to Personal Library' : 'Move to Shared Library';
  $('[data-action="download"]').hidden = kind === 'trash';
  $('[data-view-action="delete-album"]').hidden = kind !== 'album';
  grid.schedule(true);
}
watchSelection(updateSelection);

// Favorite is a toggle for the selection too: pressed, and named Unfavorite, when every selected
// asset is a favorite already. After Select All few of them may be loaded: the server says how
// many of the fetch's assets are favorites (favoriteSummary), and the exceptions, which were
// clicked and so are loaded, are counted here.
let favoriteSummary = null;  // {fetch, count, favorites}, for the fetch shown
let summaryRequest = null;

export function allSelectedFavorite() {
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
// `fresh`: ask again even if a request is on its way (its answer may predate a change); only the
// latest request's answer is used.
export function loadFavoriteSummary({ fresh = false } = {}) {
  const fetch = state.fetch?.id;
  if (!fetch) return Promise.resolve();
  if (!fresh && summaryRequest?.fetch === fetch) return summaryRequest.promise;
  const request = { fetch };
  request.promise = api.get(`/api/fetches/${fetch}/summary`)
    .then((summary) => { if (summaryRequest === request && state.fetch?.id === fetch) favoriteSummary = { fetch, ...summary }; })
    .catch(() => { /* unknown: Favorite favorites, as it did */ })
    .finally(() => { if (summaryRequest === request) summaryRequest = null; updateFavoriteAction(); });
  summaryRequest = request;
  return request.promise;
}

// The assets of `fetch` changed: the favorites among them may have too, asked again when Select
// All needs them. The control keeps what the last answer said until the new one comes, rather
// than flicking to Favorite and back while the server is asked (a click asks it anyway).
export function favoritesChanged(fetch) {
  if (favoriteSummary?.fetch !== fetch) return;
  if (state.all) {
    loadFavoriteSummary({ fresh: true });
  } else {
    favoriteSummary = null;
    updateFavoriteAction();
  }
}

function updateFavoriteAction() {
  const control = $('[data-action="favorite"]');
  const all = allSelectedFavorite();
  control.setAttribute('aria-pressed', String(all));
  control.textContent = all ? 'Unfavorite' : 'Favorite';
}
