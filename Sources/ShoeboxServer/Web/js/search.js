// The search field: results as the user types (a quarter of a second after the last key),
// Enter at once, Escape (or emptying it) back to the view; / anywhere goes to it.

import { $ } from './util.js';
import { viewHash, parseHash } from './addresses.js';
import { showAlbum } from './library-view.js';
import { state, setSearch } from './library-state.js';

let searchTimer = null;
function searchFor(text) {
  clearTimeout(searchTimer);
  const search = text.trim();
  if (search === (state.search ?? '')) return;
  setSearch(search || null);
  if (parseHash(location.hash).photo) history.replaceState(null, '', viewHash(state.album, null));
  showAlbum(state.album, { refreshAlbums: false });
}

// Another album was chosen: the search was the last one's.
export function forgetSearch() {
  setSearch(null);
  $('.search-field').value = '';
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
