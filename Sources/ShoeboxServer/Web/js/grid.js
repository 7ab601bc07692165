// A virtualized thumbnail grid: only the cells and date headers in view (plus a little more)
// are in the DOM, whatever the number of assets. Assets load by pages as they come into view.

import { request } from './api.js';
import { el, monthTitle, formatDuration, formatTaken } from './util.js';
import { watchLongPress } from './gestures.js';

// How long a cell shows a placeholder for a thumbnail a worker has still to make before asking
// the server for it directly.
const PENDING_FALLBACK_MS = 15000;

// Assets of a fetch, loaded by pages on demand; applies change details in place.
export class PagedSource {
  // pageURL(offset, limit) → URL answering {count, assets}
  constructor({ pageURL, count, sections = null, pageSize = 200 }) {
    this.pageURL = pageURL;
    this.count = count;
    this.sections = sections;
    this.pageSize = pageSize;
    this.assets = new Map();      // index → asset
    this.loading = new Map();     // page → promise
    this.onChange = () => {};
  }

  assetAt(index) { return this.assets.get(index); }

  // A page that came with the fetch's answer ({offset, assets}): not asked for again.
  seed({ offset, assets }) {
    assets.forEach((asset, position) => this.assets.set(offset + position, asset));
    this.onChange();
  }

  indexOf(localIdentifier) {
    for (const [index, asset] of this.assets) if (asset.localIdentifier === localIdentifier) return index;
    return -1;
  }

  // A newer copy of a loaded asset (a request's answer): shown at once, before its change event.
  replace(asset) {
    const index = this.indexOf(asset.localIdentifier);
    if (index < 0) return;
    this.assets.set(index, asset);
    this.onChange();
  }

  // Loads the pages covering [first, last]; calls onChange when any arrives.
  ensure(first, last) {
    if (this.count === 0) return;
    const from = Math.floor(Math.max(0, first) / this.pageSize);
    const to = Math.floor(Math.min(this.count - 1, last) / this.pageSize);
    for (let page = from; page <= to; page += 1) {
      if (this.loading.has(page)) continue;
      const offset = page * this.pageSize;
      if (this.assets.has(offset) && this.assets.has(Math.min(this.count - 1, offset + this.pageSize - 1))) continue;
      const loaded = request('GET', this.pageURL(offset, this.pageSize))
        .then((data) => {
          data.assets.forEach((asset, position) => this.assets.set(data.offset + position, asset));
          this.onChange();
        })
        .catch(() => { /* retried when the page comes into view again */ })
        .finally(() => this.loading.delete(page));
      this.loading.set(page, loaded);
    }
  }

  // PHFetchResultChangeDetails: remove (old indexes, high to low), insert (new indexes, low to
  // high), then replace changed ones and apply moves.
  applyChange(details) {
    const shift = (map, predicate, delta) => {
      const moved = new Map();
      for (const [index, asset] of map) moved.set(predicate(index) ? index + delta(index) : index, asset);
      return moved;
    };
    let assets = this.assets;
    for (const removed of [...details.removed].sort((a, b) => b - a)) {
      assets.delete(removed);
      assets = shift(assets, (index) => index > removed, () => -1);
    }
    for (const inserted of [...details.inserted].sort((a, b) => a - b)) {
      assets = shift(assets, (index) => index >= inserted, () => 1);
      if (details.assets[inserted]) assets.set(inserted, details.assets[inserted]);
    }
    for (const index of details.changed) if (details.assets[index]) assets.set(index, details.assets[index]);
    if (details.moves.length) {
      // Moves name positions after the change; reload what they touch.
      for (const [from, to] of details.moves) { assets.delete(from); assets.delete(to); }
    }
    this.assets = assets;
    this.count = details.count;
    if (details.sections !== undefined) this.sections = details.sections;
    this.onChange();
  }
}

export class VirtualGrid {
  // options: { note(asset) → text shown on the cell and said in its label (days left in Recently
  //            Deleted), onActivate(index, event), onToggle(index, event), onLongPress(index, event)
  //            (a finger held on a cell),
  //            isSelected(index, asset) → bool, isDraggable(index, asset) → bool, thumbnail(asset) → URL,
  //            stickyHeader: an element over the grid's top edge that names the month in view }
  constructor(element, options) {
    this.element = element;
    this.options = options;
    this.source = null;
    this.cells = new Map();       // index → element
    this.headers = new Map();     // section index → element
    this.activeIndex = 0;
    this.spacer = el('div', { class: 'grid-spacer', 'aria-hidden': 'true' });
    element.append(this.spacer);
    this.frame = 0;
    this.blocks = [];
    this.totalHeight = 0;
    // While a scrubber is dragged the grid shows where it is but loads nothing it passes.
    this.holdLoads = false;
    this.onBlocksChanged = () => {};
    element.addEventListener('scroll', () => { this.updateStickyHeader(); this.schedule(); }, { passive: true });
    element.addEventListener('keydown', (event) => this.onKey(event));
    element.addEventListener('click', (event) => {
      const cell = event.target.closest('.cell');
      if (!cell) return;
      const index = Number(cell.dataset.index);
      this.setActive(index, false);
      this.options.onActivate?.(index, event);
    });
    element.addEventListener('dblclick', (event) => {
      const cell = event.target.closest('.cell');
      if (cell) this.options.onOpen?.(Number(cell.dataset.index), event);
    });
    if (options.onLongPress) {
      watchLongPress(element, '.cell', (cell, event) => {
        const index = Number(cell.dataset.index);
        this.setActive(index, false);
        options.onLongPress(index, event);
      });
    }
    new ResizeObserver(() => this.layout()).observe(element);
  }

  setSource(source) {
    this.source = source;
    source.onChange = () => this.schedule(true);
    for (const cell of this.cells.values()) cell.remove();
    for (const header of this.headers.values()) header.remove();
    this.cells.clear();
    this.headers.clear();
    this.activeIndex = 0;
    this.element.scrollTop = 0;
    this.firstRowWatched = false;
    this.layout();
  }

  // Calls options.onFirstRowPainted(milliseconds since the page started) once the first row's
  // thumbnails have loaded and been painted (the web benchmark reads it).
  watchFirstRow() {
    if (this.firstRowWatched || !this.options.onFirstRowPainted || !this.source?.count) return;
    const first = Math.min(this.columns, this.source.count);
    const images = [];
    for (let index = 0; index < first; index += 1) {
      const image = this.cells.get(index)?.querySelector('img');
      if (!image) return;
      images.push(image);
    }
    this.firstRowWatched = true;
    Promise.all(images.map((image) => (image.complete ? Promise.resolve() : new Promise((resolve) => {
      image.addEventListener('load', resolve, { once: true });
      image.addEventListener('error', resolve, { once: true });
    })))).then(() => requestAnimationFrame(() => requestAnimationFrame(() => this.options.onFirstRowPainted(performance.now()))));
  }

  // Columns and cell size from the width (cells near --cell wide, filling the row).
  layout() {
    const style = getComputedStyle(this.element);
    this.gap = parseFloat(style.getPropertyValue('--gap')) || 4;
    const target = parseFloat(style.getPropertyValue('--cell')) || 160;
    this.headerHeight = parseFloat(style.getPropertyValue('--header')) || 40;
    const width = this.element.clientWidth || 800;
    this.columns = Math.max(1, Math.floor((width - this.gap) / (target + this.gap)));
    this.cellSize = Math.floor((width - this.gap * (this.columns + 1)) / this.columns);
    this.computeBlocks();
    this.render(true);
  }

  // Sections with their top offset: [{start, count, top, height, title}]
  computeBlocks() {
    const source = this.source;
    this.blocks = [];
    if (!source) return;
    const sections = source.sections?.length ? source.sections : [{ start: 0, count: source.count, month: null }];
    let top = 0;
    const row = this.cellSize + this.gap;
    for (const section of sections) {
      const header = section.month ? this.headerHeight : this.gap;
      const rows = Math.ceil(section.count / this.columns);
      this.blocks.push({ start: section.start, count: section.count, top, header, rows, month: section.month ?? null,
        title: section.month ? monthTitle(section.month) : null });
      top += header + rows * row;
    }
    this.totalHeight = top;
    this.spacer.style.height = `${top}px`;
    this.updateStickyHeader();
    this.onBlocksChanged();
  }

  // The index of the block at `y` in the content (the last one starting at or above it).
  blockIndexAt(y) {
    let low = 0, high = this.blocks.length - 1;
    if (high < 0) return -1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.blocks[middle].top <= y) low = middle; else high = middle - 1;
    }
    return low;
  }

  // The index of the block holding asset `index`.
  blockIndexOf(index) {
    let low = 0, high = this.blocks.length - 1;
    if (high < 0) return -1;
    while (low < high) {
      const middle = (low + high + 1) >> 1;
      if (this.blocks[middle].start <= index) low = middle; else high = middle - 1;
    }
    return low;
  }

  // The month at the top of the view, over the cells, pushed up by the next month's header as
  // it arrives (the block's own header shows while its top is in view).
  updateStickyHeader() {
    const sticky = this.options.stickyHeader;
    if (!sticky) return;
    const top = this.element.scrollTop;
    const index = this.blockIndexAt(top);
    const block = this.blocks[index];
    if (!block?.title || top <= block.top) { sticky.hidden = true; return; }
    sticky.hidden = false;
    if (sticky.textContent !== block.title) sticky.textContent = block.title;
    sticky.style.width = `${this.element.clientWidth}px`;
    const next = this.blocks[index + 1];
    const push = next ? Math.min(0, next.top - top - this.headerHeight) : 0;
    sticky.style.transform = push ? `translateY(${push}px)` : '';
  }

  // Scrolls so that block `blockIndex`'s header is at the top.
  scrollToBlock(blockIndex) {
    const block = this.blocks[blockIndex];
    if (!block) return;
    this.element.scrollTop = block.top;
    this.updateStickyHeader();  // now, not a frame later when the scroll event comes
  }

  // `[` and `]`: the start of the month before or after the one in focus (`[` inside a month
  // first goes to its start). Returns whether it moved.
  jumpSection(delta) {
    if (this.blocks.length < 1 || !this.source?.count) return false;
    const viewTop = this.element.scrollTop, height = this.element.clientHeight;
    const { top } = this.position(this.activeIndex);
    // The active photo's month when it is in view; else the month at the top of the view.
    const from = top >= viewTop && top < viewTop + height ? this.blockIndexOf(this.activeIndex) : this.blockIndexAt(viewTop);
    let target = from + delta;
    if (delta < 0 && (this.activeIndex > this.blocks[from].start || viewTop > this.blocks[from].top + 1)) target = from;
    target = Math.max(0, Math.min(this.blocks.length - 1, target));
    const block = this.blocks[target];
    if (target === from && this.activeIndex === block.start && Math.abs(viewTop - block.top) <= 1) return false;
    this.activeIndex = block.start;
    this.scrollToBlock(target);
    this.render();
    return true;
  }

  schedule(contentChanged = false) {
    if (contentChanged) this.dirty = true;
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = 0;
      if (this.dirty) { this.computeBlocks(); }
      this.render(this.dirty);
      this.dirty = false;
    });
  }

  // Position of an index: {top, left}
  position(index) {
    const row = this.cellSize + this.gap;
    for (const block of this.blocks) {
      if (index >= block.start && index < block.start + block.count) {
        const offset = index - block.start;
        return { top: block.top + block.header + Math.floor(offset / this.columns) * row, left: this.gap + (offset % this.columns) * row };
      }
    }
    return { top: 0, left: this.gap };
  }

  render(force = false) {
    const source = this.source;
    if (!source) return;
    const viewTop = this.element.scrollTop;
    const height = this.element.clientHeight || 600;
    const overscan = height;
    const from = viewTop - overscan, to = viewTop + height + overscan;
    const row = this.cellSize + this.gap;
    const wanted = new Set();
    const wantedHeaders = new Set();
    let firstVisible = Infinity, lastVisible = -1;
    this.blocks.forEach((block, blockIndex) => {
      const bottom = block.top + block.header + block.rows * row;
      if (bottom < from || block.top > to) return;
      if (block.title && block.top + block.header >= from) wantedHeaders.add(blockIndex);
      const firstRow = Math.max(0, Math.floor((from - block.top - block.header) / row));
      const lastRow = Math.min(block.rows - 1, Math.floor((to - block.top - block.header) / row));
      for (let r = firstRow; r <= lastRow; r += 1) {
        for (let c = 0; c < this.columns; c += 1) {
          const offset = r * this.columns + c;
          if (offset >= block.count) break;
          const index = block.start + offset;
          wanted.add(index);
          firstVisible = Math.min(firstVisible, index);
          lastVisible = Math.max(lastVisible, index);
        }
      }
    });
    if (lastVisible >= 0 && !this.holdLoads) source.ensure(firstVisible, lastVisible);
    for (const [index, cell] of this.cells) if (!wanted.has(index)) { cell.remove(); this.cells.delete(index); }
    for (const [blockIndex, header] of this.headers) if (!wantedHeaders.has(blockIndex) || force) { header.remove(); this.headers.delete(blockIndex); }
    if (force) for (const [index, cell] of this.cells) if (cell.dataset.key === 'empty' || !source.assetAt(index)) { cell.remove(); this.cells.delete(index); }
    for (const blockIndex of wantedHeaders) {
      if (this.headers.has(blockIndex)) continue;
      const block = this.blocks[blockIndex];
      const header = el('div', { class: 'grid-header', role: 'presentation' }, block.title);
      header.style.top = `${block.top}px`;
      this.element.append(header);
      this.headers.set(blockIndex, header);
    }
    for (const index of wanted) {
      const asset = source.assetAt(index);
      let cell = this.cells.get(index);
      const key = asset ? `${asset.localIdentifier}:${asset.version}:${asset.isFavorite}:${asset.thumbnailPending ? 'pending' : ''}` : 'empty';
      if (cell && cell.dataset.key !== key) { cell.remove(); this.cells.delete(index); cell = null; }
      if (!cell) {
        cell = this.makeCell(index, asset, key);
        this.element.append(cell);
        this.cells.set(index, cell);
      }
      if (asset) this.updateCell(cell, index, asset);
      const { top, left } = this.position(index);
      cell.style.transform = `translate(${left}px, ${top}px)`;
      cell.style.width = cell.style.height = `${this.cellSize}px`;
      cell.classList.toggle('active', index === this.activeIndex && this.element.matches(':focus-within'));
    }
    this.watchFirstRow();
    if (this.cells.has(this.activeIndex)) this.element.setAttribute('aria-activedescendant', `cell-${this.element.id || 'g'}-${this.activeIndex}`);
    else this.element.removeAttribute('aria-activedescendant');
  }

  makeCell(index, asset, key) {
    const cell = el('div', {
      class: 'cell', role: 'option', id: `cell-${this.element.id || 'g'}-${index}`, 'aria-selected': 'false',
      'aria-posinset': String(index + 1), 'aria-setsize': String(this.source.count), 'aria-label': asset ? this.label(asset) : 'Loading',
      dataset: { index: String(index), key, id: asset?.localIdentifier ?? '' },
    });
    cell.style.position = 'absolute';
    cell.style.left = '0';
    cell.style.top = '0';
    if (asset) {
      // Eager: the grid holds only the cells near the view, and lazy images waited for a layout pass (~290 ms on a first load).
      const image = () => el('img', { src: this.options.thumbnail(asset), alt: '', decoding: 'async', draggable: 'false' });
      if (asset.thumbnailPending) {
        // A worker is still making the thumbnail: a placeholder until the change event brings
        // it. With no worker running, the cell asks the server to make it after a while.
        cell.classList.add('pending');
        cell.append(el('span', { class: 'placeholder', 'aria-hidden': 'true' }));
        setTimeout(() => {
          if (cell.isConnected && !cell.querySelector('img')) { cell.classList.remove('pending'); cell.prepend(image()); }
        }, PENDING_FALLBACK_MS);
      } else {
        cell.append(image());
      }
      if (asset.mediaType === 'video') cell.append(el('span', { class: 'badge' }, `▶ ${formatDuration(asset.duration)}`));
      if (asset.mediaSubtypes?.includes('live')) cell.append(el('span', { class: 'badge' }, 'LIVE'));
      if (asset.burstCount > 1) {
        cell.classList.add('burst');
        cell.append(el('span', { class: 'badge' }, `BURST ${asset.burstCount}`));
      }
      if (asset.isFavorite) cell.append(el('span', { class: 'favorite-mark', 'aria-hidden': 'true' }, '♥'));
      const note = this.options.note?.(asset);
      if (note) cell.append(el('span', { class: 'days-left', 'aria-hidden': 'true' }, note));
    }
    return cell;
  }

  // Selection and order change in place (the thumbnail stays).
  updateCell(cell, index, asset) {
    cell.dataset.index = String(index);
    cell.id = `cell-${this.element.id || 'g'}-${index}`;
    cell.setAttribute('aria-posinset', String(index + 1));
    cell.setAttribute('aria-setsize', String(this.source.count));
    cell.setAttribute('aria-selected', String(!!this.options.isSelected?.(index, asset)));
    // Draggable cells start HTML drags (the library's selected photos, onto an album); the
    // thumbnail inside stays undraggable so the drag is the cell's, carrying its data.
    cell.draggable = !!this.options.isDraggable?.(index, asset);
    const order = this.options.orderOf?.(asset);
    let badge = cell.querySelector('.order');
    if (order) {
      if (!badge) { badge = el('span', { class: 'order', 'aria-hidden': 'true' }); cell.append(badge); }
      badge.textContent = String(order);
      cell.setAttribute('aria-label', `${this.label(asset)}, selected ${order}`);
    } else {
      badge?.remove();
      cell.setAttribute('aria-label', this.label(asset));
    }
  }

  label(asset) {
    const parts = [asset.originalFilename, formatTaken(asset)];
    if (asset.mediaType === 'video') parts.push(`video ${formatDuration(asset.duration)}`);
    if (asset.mediaSubtypes?.includes('live')) parts.push('Live Photo');
    if (asset.burstCount > 1) parts.push(`burst of ${asset.burstCount} photos`);
    if (asset.isFavorite) parts.push('favorite');
    const note = this.options.note?.(asset);
    if (note) parts.push(note);
    return parts.join(', ');
  }

  setActive(index, scroll = true) {
    if (!this.source || this.source.count === 0) return;
    this.activeIndex = Math.max(0, Math.min(this.source.count - 1, index));
    if (scroll) this.scrollToIndex(this.activeIndex);
    this.render();
  }

  scrollToIndex(index) {
    const { top } = this.position(index);
    const viewTop = this.element.scrollTop, height = this.element.clientHeight;
    if (top < viewTop) this.element.scrollTop = top - this.headerHeight;
    else if (top + this.cellSize > viewTop + height) this.element.scrollTop = top + this.cellSize - height + this.gap;
  }

  onKey(event) {
    if (!this.source) return;
    const page = Math.max(1, Math.floor(this.element.clientHeight / (this.cellSize + this.gap))) * this.columns;
    const moves = {
      ArrowRight: 1, ArrowLeft: -1, ArrowDown: this.columns, ArrowUp: -this.columns, PageDown: page, PageUp: -page,
    };
    if (event.key in moves) {
      event.preventDefault();
      this.setActive(this.activeIndex + moves[event.key]);
    } else if ((event.key === '[' || event.key === ']') && !event.ctrlKey && !event.metaKey && !event.altKey) {
      event.preventDefault();
      this.jumpSection(event.key === ']' ? 1 : -1);
    } else if (event.key === 'Home') {
      event.preventDefault();
      this.setActive(0);
    } else if (event.key === 'End') {
      event.preventDefault();
      this.setActive(this.source.count - 1);
    } else if (event.key === ' ') {
      event.preventDefault();
      this.options.onToggle?.(this.activeIndex, event);
    } else if (event.key === 'Enter') {
      event.preventDefault();
      this.options.onOpen?.(this.activeIndex, event);
    }
  }

  // Number of cell elements in the DOM (the tests hold it small).
  get renderedCellCount() { return this.cells.size; }
}
