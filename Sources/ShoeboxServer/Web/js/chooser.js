// Choosing the photos a limited client sees (the prompt's Select Photos… and the Privacy page):
// the library newest first under month headings, as toggle buttons, narrowed to an album or to
// what a search finds. Pages come by keyset (GET /api/assets with `after`) as the list scrolls to
// its end, so the oldest photo is reachable however large the library, without loading it all up
// front. What is chosen stays chosen while the album or the search changes.

import { api } from './api.js';
import { el, monthTitle, thumbnailURL } from './util.js';

// Smart albums not offered: what they hold is not for sharing from here (or is empty by nature).
const HIDDEN_SMART = new Set(['smartAlbumRecentlyDeleted', 'smartAlbumAllHidden', 'smartAlbumUserLibrary']);

export class PhotoChooser {
  // chosen: identifiers selected already (a client's current selection)
  constructor(chosen = []) {
    this.chosen = new Set(chosen);
    this.album = '';
    this.search = '';
    this.generation = 0;  // a page asked for before the album or search changed is dropped
    this.count = el('p', { class: 'hint chooser-count', 'aria-live': 'polite' });
    this.source = el('select', { 'aria-label': 'Show' }, el('option', { value: '' }, 'All Photos'));
    this.source.addEventListener('change', () => { this.album = this.source.value; this.restart(); });
    this.searchField = el('input', { type: 'search', placeholder: 'Search', 'aria-label': 'Search photos to share', enterkeyhint: 'search' });
    let typing;
    this.searchField.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => { this.search = this.searchField.value.trim(); this.restart(); }, 250);
    });
    this.toolbar = el('div', { class: 'chooser-toolbar' }, this.source, this.searchField);
    this.sentinel = el('div', { class: 'select-more', 'aria-hidden': 'true' });
    this.grid = el('div', { class: 'select-photos', role: 'group', 'aria-label': 'Photos to share' }, this.sentinel);
    this.element = el('div', { class: 'photo-chooser' }, this.toolbar, this.grid);
    // The sentinel after the last button coming near the view asks for the next page.
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) this.loadMore();
    }, { root: this.grid, rootMargin: '300px' });
    this.restart();
    this.loadAlbums();
    this.updateCount();
  }

  get selection() { return [...this.chosen]; }

  close() { this.observer.disconnect(); }

  async loadAlbums() {
    try {
      const albums = await api.get('/api/albums');
      const smart = albums.smartAlbums.filter((album) => album.count > 0 && !HIDDEN_SMART.has(album.subtype));
      const own = albums.albums.filter((album) => album.count > 0);
      const option = (album) => el('option', { value: album.localIdentifier }, `${album.title} (${album.count})`);
      this.source.append(...smart.map(option));
      if (own.length) this.source.append(el('optgroup', { label: 'Albums' }, own.map(option)));
    } catch {
      // The album menu is a convenience: without it the whole library is still there to choose from.
    }
  }

  // Starts the list again for the album and search now set.
  restart() {
    this.generation += 1;
    this.next = undefined;  // the cursor for the next page; null after the last one
    this.lastMonth = null;
    this.loading = false;
    this.grid.replaceChildren(this.sentinel);
    this.observer.unobserve(this.sentinel);
    this.observer.observe(this.sentinel);
  }

  async loadMore() {
    if (this.loading || this.next === null) return;
    this.loading = true;
    const generation = this.generation;
    try {
      const query = new URLSearchParams({ limit: '200', ascending: 'false' });
      if (this.album) query.set('album', this.album);
      if (this.search) query.set('search', this.search);
      if (this.next) query.set('after', this.next);
      const page = await api.get(`/api/assets?${query}`);
      if (generation !== this.generation) return;
      const items = [];
      for (const asset of page.assets) {
        const month = (asset.localCreationDate ?? asset.creationDate ?? '').slice(0, 7);
        if (month && month !== this.lastMonth) {
          this.lastMonth = month;
          items.push(el('h3', { class: 'chooser-month' }, monthTitle(month)));
        }
        items.push(this.toggle(asset));
      }
      if (!items.length && !this.next) {
        items.push(el('p', { class: 'hint chooser-empty' }, this.search ? `No photos match “${this.search}”.` : 'No photos here.'));
      }
      this.sentinel.before(...items);
      this.next = page.next ?? null;
    } catch (error) {
      if (generation !== this.generation) return;
      this.count.textContent = `Could not load the photos: ${error.message}`;
      this.next = null;
    } finally {
      if (generation === this.generation) this.loading = false;
    }
    // Observing again reports the sentinel afresh: a page that did not fill the list asks for
    // the next one at once (an unchanged "intersecting" would never be reported again).
    this.observer.unobserve(this.sentinel);
    if (this.next !== null) this.observer.observe(this.sentinel);
  }

  toggle(asset) {
    const id = asset.localIdentifier;
    const toggle = el('button', { type: 'button', 'aria-pressed': String(this.chosen.has(id)), 'aria-label': asset.originalFilename, dataset: { id } },
      el('img', { src: thumbnailURL('/api/assets', asset, 128, 'fill'), alt: '', loading: 'lazy' }));
    toggle.addEventListener('click', () => {
      const on = !this.chosen.has(id);
      if (on) this.chosen.add(id); else this.chosen.delete(id);
      toggle.setAttribute('aria-pressed', String(on));
      this.updateCount();
    });
    return toggle;
  }

  updateCount() {
    const count = this.chosen.size;
    this.count.textContent = count ? `${count} photo${count === 1 ? '' : 's'} selected` : 'No photos selected';
  }
}
