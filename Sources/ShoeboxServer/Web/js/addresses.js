// Every view of the library page has its address, in the URL's hash: an album `#/album/A`, a
// place's photos `#/place/KEY` (`IT%2FRome`, `region%3AS%2CW%2CN%2CE`), a memory's
// `#/memory/ID`, a partner's `#/partner/NAME`, a keyword's `#/keyword/K`, Recents `#/`; an open photo adds `/photo/ID`. So Back, Forward and a reload
// show what was shown.

import { state } from './library-state.js';
import { sharedBy } from './partners.js';

export function viewHash(album, photo, place = state.place?.key) {
  const scopePart = place?.startsWith('memory:') ? `memory/${encodeURIComponent(place.slice(7))}`
    : place?.startsWith('partner:') ? `partner/${encodeURIComponent(place.slice(8))}`
    : place?.startsWith('keyword:') ? `keyword/${encodeURIComponent(place.slice(8))}` : place ? `place/${encodeURIComponent(place)}` : '';
  const albumPart = album ? `album/${encodeURIComponent(album)}` : scopePart;
  const photoPart = photo ? `photo/${encodeURIComponent(photo)}` : '';
  return `#/${[albumPart, photoPart].filter(Boolean).join('/')}`;
}

export function parseHash(hash) {
  const match = hash.match(/^#\/(?:(album|place|memory|partner|keyword)\/([^/]+))?\/?(?:photo\/([^/]+))?$/);
  if (!match) return { album: null, place: null, photo: null };
  const scope = match[2] ? decodeURIComponent(match[2]) : null;
  const place = match[1] === 'place' ? scope : ['memory', 'partner', 'keyword'].includes(match[1]) ? `${match[1]}:${scope}` : null;
  return { album: match[1] === 'album' ? scope : null, place, photo: match[3] ? decodeURIComponent(match[3]) : null };
}

// Shows the photos of a place, a map cluster or a memory (`key`), titled `title`, at its own URL.
const knownTitles = new Map();
export function openScope(key, title) {
  knownTitles.set(key, title);
  location.hash = viewHash(null, null, key);
}

// The title of a place's or a memory's photos: the one it was opened with, else one made from its key.
export function scopeTitle(key) { return knownTitles.get(key) ?? placeTitle(key); }

// "Rome, Italy" for IT/Rome, "Italy" for IT (the browser's names of countries), "On the map" for a region.
const countryNames = typeof Intl.DisplayNames === 'function' ? new Intl.DisplayNames(['en'], { type: 'region' }) : null;
function placeTitle(key) {
  if (key.startsWith('region:')) return 'On the map';
  if (key.startsWith('keyword:')) return key.slice(8);
  if (key.startsWith('partner:')) return `Shared by ${sharedBy(key.slice(8))?.sharer.displayName ?? key.slice(8)}`;
  if (key.startsWith('memory:')) return state.memories?.find((memory) => memory.id === key.slice(7))?.title ?? memoryTitle(key.slice(7));
  const [code, city] = key.split(/\/(.*)/s);
  const country = countryNames?.of(code) ?? code;
  return city ? `${city}, ${country}` : country;
}

// A memory's title from its identifier, before the list has arrived (a reload on its page).
function memoryTitle(id) {
  if (id.startsWith('year-')) return id.slice(5);
  if (id.startsWith('on-this-day-')) return 'On This Day';
  return 'Trip';
}
