// Choosing the photos a limited client sees (the prompt's Select Photos… and the Privacy page):
// the whole library, newest first, as toggle buttons. Pages come by keyset (GET /api/assets with
// `after`) as the list scrolls to its end, so the oldest photo is reachable however large the
// library, without loading it all up front.

import { api } from './api.js';
import { el, thumbnailURL } from './util.js';

export class PhotoChooser {
  // chosen: identifiers selected already (a client's current selection)
  constructor(chosen = []) {
    this.chosen = new Set(chosen);
    this.next = undefined;  // the cursor for the next page; null after the last one
    this.count = el('p', { class: 'hint chooser-count', 'aria-live': 'polite' });
    this.sentinel = el('div', { class: 'select-more', 'aria-hidden': 'true' });
    this.element = el('div', { class: 'select-photos', role: 'group', 'aria-label': 'Photos to share' }, this.sentinel);
    // The sentinel after the last button coming near the view asks for the next page.
    this.observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) this.loadMore();
    }, { root: this.element, rootMargin: '300px' });
    this.observer.observe(this.sentinel);
    this.updateCount();
  }

  get selection() { return [...this.chosen]; }

  close() { this.observer.disconnect(); }

  async loadMore() {
    if (this.loading || this.next === null) return;
    this.loading = true;
    try {
      const after = this.next ? `&after=${encodeURIComponent(this.next)}` : '';
      const page = await api.get(`/api/assets?limit=200&ascending=false${after}`);
      this.sentinel.before(...page.assets.map((asset) => this.toggle(asset)));
      this.next = page.next ?? null;
    } catch (error) {
      this.count.textContent = `Could not load the photos: ${error.message}`;
      this.next = null;
    } finally {
      this.loading = false;
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
