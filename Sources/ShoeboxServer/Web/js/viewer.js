// The viewer: one asset at a time, full size, with keyboard navigation (← →, Escape), zoom
// (+ − 0, double-click, wheel) and panning by dragging the zoomed image, a Favorite toggle kept
// current by change events, movie playback with seeking, and an info panel (i).

import { api } from './api.js';
import { el, button, formatDate, formatTaken, formatBytes, formatDuration } from './util.js';

export class Viewer {
  // source: PagedSource; actions: { favorite(asset, isFavorite) → Asset, remove(asset), restore(asset) }
  constructor(dialog, actions) {
    this.dialog = dialog;
    this.actions = actions;
    this.zoom = 1;
    this.pan = { x: 0, y: 0 };
    this.showInfo = false;
    dialog.addEventListener('keydown', (event) => this.onKey(event));
    dialog.addEventListener('close', () => {
      this.dialog.replaceChildren();
      this.media = null;
      this.asset = null;
      this.zoom = 1;
      this.pan = { x: 0, y: 0 };
      this.onClose?.(this.index);
    });
  }

  get isOpen() { return this.dialog.open; }

  open(source, index) {
    this.source = source;
    this.index = index;
    if (!this.dialog.open) this.dialog.showModal();
    this.show();
  }

  async show() {
    const asset = this.source.assetAt(this.index);
    if (!asset) {
      this.source.ensure(this.index, this.index);
      setTimeout(() => this.show(), 150);
      return;
    }
    this.asset = asset;
    this.onShow?.(asset);
    this.zoom = 1;
    this.pan = { x: 0, y: 0 };
    const base = `/api/assets/${encodeURIComponent(asset.localIdentifier)}`;
    let media;
    if (asset.mediaType === 'video') {
      media = el('video', { src: `${base}/video`, controls: true, preload: 'metadata', 'aria-label': `${asset.originalFilename}, movie ${formatDuration(asset.duration)}` });
    } else {
      // Not draggable: a drag on the image pans it (the browser's own image drag would take it).
      media = el('img', { src: `${base}/thumbnail?size=2048&mode=fit&v=${asset.version}`, alt: asset.originalFilename, draggable: 'false' });
      media.addEventListener('dblclick', () => this.setZoom(this.zoom > 1 ? 1 : 2));
      media.addEventListener('wheel', (event) => { event.preventDefault(); this.setZoom(this.zoom * (event.deltaY < 0 ? 1.15 : 1 / 1.15)); }, { passive: false });
      this.enablePanning(media);
    }
    this.media = media;
    this.favoriteButton = button('', () => this.toggleFavorite(), { ariaLabel: 'Favorite' });
    this.renderFavorite();
    const bar = el('div', { class: 'viewer-bar' },
      el('span', { class: 'title' }, `${asset.originalFilename} · ${formatTaken(asset)}`),
      this.favoriteButton,
      asset.isTrashed ? button('Restore', async () => { await this.actions.restore(asset); this.dialog.close(); })
        : button('Delete', async () => { await this.actions.remove(asset); this.next(1, true); }),
      button('Info', () => { this.showInfo = !this.showInfo; this.show(); }, { ariaLabel: 'Info' }),
      button('Close', () => this.dialog.close()));
    const stage = el('div', { class: 'viewer-stage' }, bar,
      el('button', { type: 'button', class: 'viewer-nav previous', 'aria-label': 'Previous', onclick: () => this.next(-1) }, '‹'),
      media,
      el('button', { type: 'button', class: 'viewer-nav next', 'aria-label': 'Next', onclick: () => this.next(1) }, '›'));
    const layout = el('div', { class: 'viewer-layout' }, stage);
    if (this.showInfo) layout.append(await this.infoPanel(asset));
    this.dialog.replaceChildren(layout);
    (asset.mediaType === 'video' ? media : bar.querySelector('button:last-child')).focus();
  }

  async infoPanel(asset) {
    const panel = el('aside', { class: 'info-panel', 'aria-label': 'Info' }, el('h2', {}, 'Info'));
    const rows = [
      ['Name', asset.originalFilename], ['Taken', formatTaken(asset, { withZone: true })], ['Added', formatDate(asset.addedDate)],
      ['Size', `${asset.pixelWidth} × ${asset.pixelHeight}`], ['File', `${asset.uniformTypeIdentifier}, ${formatBytes(asset.fileSize)}`],
    ];
    if (asset.mediaType === 'video') rows.push(['Length', formatDuration(asset.duration)]);
    if (asset.latitude != null) rows.push(['Location', `${asset.latitude.toFixed(5)}, ${asset.longitude.toFixed(5)}`]);
    if (asset.hasAdjustments) rows.push(['Edited', 'yes (the original is kept)']);
    try {
      const detail = await api.get(`/api/assets/${encodeURIComponent(asset.localIdentifier)}`);
      const photo = detail.photo ?? {};
      if (photo.make || photo.model) rows.push(['Camera', [photo.make, photo.model].filter(Boolean).join(' ')]);
      if (photo.lens) rows.push(['Lens', photo.lens]);
      if (photo.exposureTime) rows.push(['Exposure', photo.exposureTime < 1 ? `1/${Math.round(1 / photo.exposureTime)} s` : `${photo.exposureTime} s`]);
      if (photo.fNumber) rows.push(['Aperture', `ƒ/${photo.fNumber}`]);
      if (photo.isoSpeed) rows.push(['ISO', String(photo.isoSpeed)]);
      if (photo.focalLength) rows.push(['Focal length', `${photo.focalLength} mm`]);
      if (photo.flashFired != null) rows.push(['Flash', photo.flashFired ? 'fired' : 'off']);
      const movie = detail.movie;
      if (movie) rows.push(['Codecs', [movie.videoCodec, movie.audioCodec].filter(Boolean).join(' + ')], ['Frame rate', movie.frameRate ? `${movie.frameRate.toFixed(2)} fps` : '—']);
    } catch { /* the basic rows stand */ }
    panel.append(el('dl', {}, rows.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)])));
    return panel;
  }

  // Favorite is a toggle showing the asset's current state (aria-pressed): a click asks for the
  // opposite, and the answer — or a change event from anywhere — is what it shows next.
  async toggleFavorite() {
    const asset = this.asset;
    if (!asset || this.favoriting) return;  // one request at a time: each one asks for the opposite of the last answer
    this.favoriting = true;
    try {
      const updated = await this.actions.favorite(asset, !asset.isFavorite);
      if (updated) this.assetChanged(updated);
    } catch (error) {
      console.error('favorite failed', error);  // the button still shows the last known state
    } finally {
      this.favoriting = false;
    }
  }

  renderFavorite() {
    if (!this.favoriteButton) return;
    const on = !!this.asset?.isFavorite;
    this.favoriteButton.textContent = on ? '♥ Favorite' : '♡ Favorite';
    this.favoriteButton.setAttribute('aria-pressed', String(on));
  }

  // A newer copy of an asset (an answer, or a change event): shown when it is the one on screen,
  // and put in the source so the grid and the next visit agree.
  assetChanged(asset) {
    if (!this.dialog.open || asset?.localIdentifier !== this.asset?.localIdentifier) return;
    this.asset = asset;
    this.source?.replace(asset);
    this.renderFavorite();
  }

  // The fetch changed under the viewer: follow the shown asset to its new index (inserts and
  // removals before it shift it), so next and previous go on from it.
  sourceChanged() {
    if (!this.dialog.open || !this.asset) return;
    const index = this.source.indexOf(this.asset.localIdentifier);
    if (index >= 0) this.index = index;
  }

  // A library change naming the shown asset (maybe outside this fetch: another process, or an
  // album it left): read it again.
  async libraryChanged(details) {
    const id = this.asset?.localIdentifier;
    if (!this.dialog.open || !id || !details.changed?.includes(id)) return;
    try {
      const detail = await api.get(`/api/assets/${encodeURIComponent(id)}`);
      this.assetChanged(detail.asset);
    } catch { /* deleted for good meanwhile: the next change moves the viewer on */ }
  }

  setZoom(zoom) {
    this.zoom = Math.min(8, Math.max(1, zoom));
    if (this.zoom === 1) this.pan = { x: 0, y: 0 };
    this.applyTransform();
  }

  // Dragging a zoomed image pans it; pointer events serve the mouse, pens and touch alike, and the
  // capture keeps the drag when the pointer leaves the image.
  enablePanning(image) {
    let start = null;
    image.addEventListener('pointerdown', (event) => {
      if (this.zoom <= 1 || event.button !== 0) return;
      event.preventDefault();
      image.setPointerCapture(event.pointerId);
      start = { x: event.clientX - this.pan.x, y: event.clientY - this.pan.y };
      image.classList.add('panning');
    });
    image.addEventListener('pointermove', (event) => {
      if (!start) return;
      this.pan = { x: event.clientX - start.x, y: event.clientY - start.y };
      this.applyTransform();
    });
    const end = () => { start = null; image.classList.remove('panning'); };
    image.addEventListener('pointerup', end);
    image.addEventListener('pointercancel', end);
  }

  // Scales about the centre, then moves by the pan — held so a side larger than the stage never
  // shows a gap at its edge, and a side smaller than it stays centred.
  applyTransform() {
    const image = this.media;
    if (image?.tagName !== 'IMG') return;
    const stage = image.parentElement?.getBoundingClientRect();
    if (!stage) return;
    const reach = (side, room) => Math.max(0, (side * this.zoom - room) / 2);
    const clamp = (value, limit) => Math.min(limit, Math.max(-limit, value));
    this.pan = { x: clamp(this.pan.x, reach(image.offsetWidth, stage.width)), y: clamp(this.pan.y, reach(image.offsetHeight, stage.height)) };
    image.style.transform = this.zoom === 1 ? '' : `translate(${this.pan.x}px, ${this.pan.y}px) scale(${this.zoom})`;
    image.classList.toggle('zoomed', this.zoom > 1);
  }

  next(step, afterRemoval = false) {
    const count = this.source.count;
    if (count === 0) { this.dialog.close(); return; }
    const index = afterRemoval ? Math.min(this.index, count - 1) : this.index + step;
    if (index < 0 || index >= count) return;
    this.index = index;
    this.show();
  }

  onKey(event) {
    if (event.target.tagName === 'VIDEO' && (event.key === 'ArrowLeft' || event.key === 'ArrowRight')) return;
    switch (event.key) {
      case 'ArrowRight': event.preventDefault(); this.next(1); break;
      case 'ArrowLeft': event.preventDefault(); this.next(-1); break;
      case '+': case '=': this.setZoom(this.zoom * 1.25); break;
      case '-': this.setZoom(this.zoom / 1.25); break;
      case '0': this.setZoom(1); break;
      case 'i': this.showInfo = !this.showInfo; this.show(); break;
      default: break;
    }
  }
}
