// The timeline scrubber: a strip along the grid's right edge with the years (and a dot for each
// month) where they fall in the grid. Dragging it, or a click or a tap on it, jumps there at once;
// while it is held the grid loads nothing it passes, only where it is let go. A slider for the
// keyboard and screen readers: ↑ ↓ a month, Page Up / Page Down a year, Home and End.
//
// It works on a VirtualGrid's month blocks ({top, month, title}), so its cost does not grow with
// the number of photos: a library of 100,000 photos over 20 years has 240 marks.

import { el } from './util.js';

// Year labels closer than this (pixels) to the one before move down to make room (only those
// that would fall off the strip's end are left out); month dots closer than theirs are left out.
const YEAR_SPACING = 14;
const MONTH_SPACING = 5;
const LABEL_HALF = 7;  // a label is centred on its year: the first sits this far down, whole

export class TimelineScrubber {
  // element: the strip (beside the grid, in a frame that gets .has-scrubber while it shows)
  constructor(element, grid) {
    this.element = element;
    this.grid = grid;
    this.marks = el('div', { class: 'scrubber-marks', 'aria-hidden': 'true' });
    this.thumb = el('div', { class: 'scrubber-thumb', 'aria-hidden': 'true' });
    this.bubble = el('div', { class: 'scrubber-bubble', 'aria-hidden': 'true', hidden: '' });
    element.append(this.marks, this.thumb, this.bubble);
    element.setAttribute('role', 'slider');
    element.setAttribute('aria-orientation', 'vertical');
    element.setAttribute('aria-label', 'Timeline');
    element.setAttribute('aria-valuemin', '0');
    element.setAttribute('aria-valuemax', '100');
    element.tabIndex = 0;
    this.dragging = null;   // the pointer id while held
    grid.onBlocksChanged = () => this.build();
    grid.element.addEventListener('scroll', () => this.update(), { passive: true });
    element.addEventListener('pointerdown', (event) => this.onDown(event));
    element.addEventListener('pointermove', (event) => this.onMove(event));
    element.addEventListener('pointerup', (event) => this.onUp(event));
    element.addEventListener('pointercancel', (event) => this.onUp(event));
    element.addEventListener('pointerleave', () => { if (this.dragging === null) this.bubble.hidden = true; });
    element.addEventListener('keydown', (event) => this.onKey(event));
    new ResizeObserver(() => this.build()).observe(element);
    this.build();
  }

  // The scroll range the strip maps onto: its top is the grid's top, its bottom the last screen.
  get range() { return Math.max(1, this.grid.totalHeight - this.grid.element.clientHeight); }

  // Shown when the grid is in months and more than two screens tall.
  get isUseful() {
    const months = this.grid.blocks.filter((block) => block.month).length;
    return months > 1 && this.grid.totalHeight > 2 * this.grid.element.clientHeight;
  }

  // Marks for the years and months where their headers fall.
  build() {
    const useful = this.isUseful;
    this.element.hidden = !useful;
    this.element.parentElement?.classList.toggle('has-scrubber', useful);
    this.marks.replaceChildren();
    if (!useful) return;
    const height = this.element.clientHeight || 1;
    const range = this.range;
    let lastYear = null, lastYearAt = -Infinity, lastDotAt = -Infinity;
    const marks = [];
    for (const block of this.grid.blocks) {
      if (!block.month) continue;
      const y = Math.min(1, block.top / range) * height;
      const year = block.month.slice(0, 4);
      if (year !== lastYear) {
        lastYear = year;
        const at = Math.min(Math.max(y, lastYearAt + YEAR_SPACING, LABEL_HALF), height - LABEL_HALF);
        if (at >= lastYearAt + YEAR_SPACING) {
          const mark = el('span', { class: 'scrubber-year' }, year);
          mark.style.top = `${at}px`;
          marks.push(mark);
          lastYearAt = at;
          lastDotAt = at;
          continue;
        }
      }
      if (y - lastDotAt >= MONTH_SPACING && y - lastYearAt >= YEAR_SPACING) {
        const dot = el('span', { class: 'scrubber-month' });
        dot.style.top = `${y}px`;
        marks.push(dot);
        lastDotAt = y;
      }
    }
    this.marks.append(...marks);
    this.update();
  }

  // The thumb and the slider's value follow the grid's scroll position.
  update() {
    if (this.element.hidden) return;
    const fraction = Math.min(1, this.grid.element.scrollTop / this.range);
    this.thumb.style.transform = `translateY(${fraction * (this.element.clientHeight || 1)}px)`;
    this.element.setAttribute('aria-valuenow', String(Math.round(fraction * 100)));
    const block = this.grid.blocks[this.grid.blockIndexAt(this.grid.element.scrollTop)];
    if (block?.title) this.element.setAttribute('aria-valuetext', block.title);
    if (this.dragging !== null) this.showBubble(fraction * (this.element.clientHeight || 1), block?.title);
  }

  fractionAt(event) {
    const rect = this.element.getBoundingClientRect();
    return Math.max(0, Math.min(1, (event.clientY - rect.top) / (rect.height || 1)));
  }

  titleAt(fraction) {
    return this.grid.blocks[this.grid.blockIndexAt(fraction * this.range)]?.title ?? '';
  }

  showBubble(y, title) {
    if (!title) { this.bubble.hidden = true; return; }
    this.bubble.hidden = false;
    this.bubble.textContent = title;
    this.bubble.style.top = `${y}px`;
  }

  jumpTo(fraction) {
    this.grid.element.scrollTop = fraction * this.range;
    this.update();
  }

  onDown(event) {
    if (event.button !== undefined && event.button > 0) return;
    event.preventDefault();  // no text selection on the way; it also keeps focus from coming by itself:
    this.element.focus({ preventScroll: true });  // the keys (↑ ↓ Page Up…) go on from where it was clicked
    this.dragging = event.pointerId;
    try { this.element.setPointerCapture(event.pointerId); } catch { /* a pointer the browser does not track (a synthetic event) */ }
    this.element.classList.add('dragging');
    this.grid.holdLoads = true;
    this.jumpTo(this.fractionAt(event));
  }

  onMove(event) {
    const fraction = this.fractionAt(event);
    if (this.dragging === event.pointerId) {
      this.jumpTo(fraction);
    } else if (this.dragging === null && event.pointerType === 'mouse') {
      // Hovering names the month under the pointer.
      this.showBubble(fraction * (this.element.clientHeight || 1), this.titleAt(fraction));
    }
  }

  onUp(event) {
    if (this.dragging !== event.pointerId) return;
    this.dragging = null;
    this.element.classList.remove('dragging');
    this.bubble.hidden = true;
    this.grid.holdLoads = false;
    // The first photo in view becomes the one in focus, and its pages load.
    const block = this.grid.blocks[this.grid.blockIndexAt(this.grid.element.scrollTop)];
    if (block) this.grid.activeIndex = this.firstInView(block);
    this.grid.schedule(true);
  }

  // The first photo whose row is in view, in `block`.
  firstInView(block) {
    const row = this.grid.cellSize + this.grid.gap;
    const offset = this.grid.element.scrollTop - block.top - block.header;
    const rowIndex = Math.max(0, Math.ceil(offset / row));
    return Math.min(block.start + block.count - 1, block.start + rowIndex * this.grid.columns);
  }

  onKey(event) {
    const blocks = this.grid.blocks;
    const here = this.grid.blockIndexAt(this.grid.element.scrollTop);
    let target = null;
    if (event.key === 'ArrowUp' || event.key === 'ArrowDown') {
      target = here + (event.key === 'ArrowDown' ? 1 : -1);
      if (event.key === 'ArrowUp' && this.grid.element.scrollTop > blocks[here].top + 1) target = here;
    } else if (event.key === 'PageUp' || event.key === 'PageDown') {
      // The first month of the next year, or of this year (then the one before) going back, in
      // the order the grid shows.
      const yearOf = (index) => blocks[index]?.month?.slice(0, 4);
      const yearStart = (index) => { let first = index; while (first > 0 && yearOf(first - 1) === yearOf(index)) first -= 1; return first; };
      if (event.key === 'PageDown') {
        target = here;
        while (target < blocks.length - 1 && yearOf(target) === yearOf(here)) target += 1;
        if (yearOf(target) === yearOf(here)) target = here;  // the last year already
      } else {
        const start = yearStart(here);
        target = here > start || this.grid.element.scrollTop > blocks[start].top + 1 ? start : yearStart(Math.max(0, start - 1));
      }
    } else if (event.key === 'Home') {
      target = 0;
    } else if (event.key === 'End') {
      event.preventDefault();
      this.jumpTo(1);
      return;
    } else {
      return;
    }
    event.preventDefault();
    target = Math.max(0, Math.min(blocks.length - 1, target));
    this.grid.scrollToBlock(target);
    this.grid.activeIndex = blocks[target].start;
    this.update();
  }
}
