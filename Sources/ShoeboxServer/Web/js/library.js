// The library app: albums in the sidebar (sidebar.js), the photos of the chosen one in a
// virtualized grid with date headers and the viewer over it (photos.js, library-view.js), search
// (search.js), multi-select actions (selection.js, actions.js), import, live changes, Places,
// Shared Links, Background Work, the Privacy page and authorization prompts (questions.js).
// This module starts it and shows the page the URL names; library-state.js holds what is shown.

import { api } from './api.js';
import { PlacesView } from './places.js';
import { showShares } from './sharing.js';
import { showSharedAlbum } from './shared-albums.js';
import { showPartnerSettings } from './partners.js';
import { loadSharedLibrary, setSharedLibraryPerson, showSharedLibrarySettings } from './shared-library.js';
import { Importer } from './upload.js';
import { showPrivacy } from './privacy.js';
import { JobIndicator, showJobs } from './jobs.js';
import { PhoneBackup } from './backup.js';
import { whoAmI, showAccount, showPeople } from './account.js';
import { reportUnhandledFailures } from './status.js';
import { watchCameras } from './cameras.js';
import { $ } from './util.js';
import { state, currentAlbum, setPlace } from './library-state.js';
import { parseHash, openScope, scopeTitle } from './addresses.js';
import { grid, viewer, openPhoto, closeViewer } from './photos.js';
import { showAlbum, listenForChanges, fetchRecentsEarly } from './library-view.js';
import { loadAlbums, closeSidebarOnPhone } from './sidebar.js';
import { forgetSearch } from './search.js';
import { prompts } from './questions.js';
import { watchActions } from './actions.js';
import { watchShortcutKey } from './shortcuts.js';

reportUnhandledFailures();
// The app shell is kept by a service worker (sw.js), so the installed app opens without a
// connection; browsers offer it only on a secure origin (https, or this machine).
if ('serviceWorker' in navigator) navigator.serviceWorker.register('/sw.js').catch(() => {});
// Started here, as nothing else imports these two (and a module only imported for its effects
// would escape the server's preloads, which follow `import … from`).
watchActions();
watchShortcutKey();

const placesView = new PlacesView($('.places-view'), {
  openPlace: ({ place, title }) => openScope(place, title),
  openRegion: ({ region, title }) => openScope(`region:${region}`, title),
});

const backup = new PhoneBackup($('.backup-panel'));
const importer = new Importer($('.uploads'), { album: () => currentAlbum()?.kind === 'album' ? state.album : null });
$('#import-input').addEventListener('change', (event) => { importer.add(event.target.files); event.target.value = ''; });
importer.watchDrops(document.body, $('.drop-target'));

// Who is signed in (GET /api/me): the top bar shows them; admins see People; everyone their own
// apps (Privacy) and Background Work.
let me = null;

async function route({ initial = false } = {}) {
  const hash = location.hash;
  $('.shared-album-view').hidden = !hash.startsWith('#/shared/');
  if (hash.startsWith('#/shared/')) {
    for (const view of ['.library-view', '.privacy-view', '.jobs-view', '.account-view', '.people-view', '.places-view', '.shares-view', '.backup-view']) $(view).hidden = true;
    // Others' likes, comments and photos arrive by the change events.
    if (!state.events) listenForChanges();
    await showSharedAlbum(decodeURIComponent(hash.slice('#/shared/'.length)));
    await loadAlbums();
    return;
  }
  $('.jobs-view').hidden = hash !== '#/jobs';
  $('.backup-view').hidden = hash !== '#/backup';
  if (hash === '#/backup') {
    $('.library-view').hidden = true;
    $('.privacy-view').hidden = true;
    for (const view of ['.account-view', '.people-view', '.places-view', '.shares-view']) $(view).hidden = true;
    backup.show(me);
    await loadAlbums();
    return;
  }
  $('.account-view').hidden = hash !== '#/account';
  $('.people-view').hidden = hash !== '#/people';
  if (hash === '#/account' || hash === '#/people') {
    $('.library-view').hidden = true;
    $('.privacy-view').hidden = true;
    if (hash === '#/account') {
      await Promise.all([showAccount($('.account-panel'), me), showPartnerSettings($('.partner-panel')), showSharedLibrarySettings($('.shared-library-panel'), me?.person)]);
    }
    else await showPeople($('.people-panel'));
    await loadAlbums();
    return;
  }
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
    setPlace(null);
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
  if (!initial && moved && state.search) forgetSearch();
  // Back and Forward between a photo and its album keep the grid; anything else shows the album.
  if (initial || moved || !state.fetch || $('.library-view').hidden) {
    await showAlbum(album, { refreshAlbums: !initial, place: place ? { key: place, title: scopeTitle(place) } : null });
  }
  if (photo && viewer.asset?.localIdentifier !== photo) await openPhoto(photo);
  else if (!photo && viewer.isOpen) closeViewer();
}

window.addEventListener('hashchange', () => { closeSidebarOnPhone(); route(); });  // e.g. a New Album made in the drawer
// Background work: the indicator in the top bar; on the Background Work page, the list follows it.
const jobIndicator = new JobIndicator($('.jobs-indicator'));
jobIndicator.onChange = (listing) => { if (location.hash === '#/jobs') showJobs($('.job-panel'), jobIndicator, listing); };
// The first load asks for the albums, the prompts and the photos at once; only an album's page
// waits for the albums, which say what kind of album it is.
(async () => {
  // Recents' photos first, beside who is signed in: the grid does not wait for the person.
  if (/^(#\/?(photo\/[^/]+)?)?$/.test(location.hash)) fetchRecentsEarly();
  const prompted = api.get('/api/prompts').catch(() => []);
  const sharedLibrary = loadSharedLibrary().catch(() => null);
  me = await whoAmI().catch(() => null);
  const isAdmin = me?.person?.role === 'admin';
  if (me) {
    $('.person-link').textContent = me.person.displayName;
    $('.person-link').setAttribute('aria-label', `Account: ${me.person.displayName}`);
    $('.person-link').hidden = false;
  }
  for (const item of document.querySelectorAll('.admin-only')) item.hidden = !isAdmin;
  watchCameras();  // the cameras this browser offers the person's pickers (apps' too)
  const albums = loadAlbums();
  // Whether the person is in the Shared Library: Recents then shows the library they chose.
  setSharedLibraryPerson(me?.person);
  if (me) await sharedLibrary;
  // The questions this person's apps wait on.
  const waiting = me ? prompted : Promise.resolve([]);
  if (/^#\/album\//.test(location.hash)) await albums;
  await route({ initial: true });
  await albums;
  for (const prompt of await waiting) prompts.add(prompt);
  if (me) jobIndicator.refresh();
  $('#photos').focus();
})();

// For tests and benchmarks: how many grid cells are in the DOM, and the first paint.
// shareLimit: the most chosen photos a link shows (the server's limit; a test lowers it).
window.shoebox = { grid, state, renderedCells: () => grid.renderedCellCount, firstRowPaintedAt: null, shareLimit: 10_000 };
