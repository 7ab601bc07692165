// The viewer: one asset at a time, full size, with keyboard navigation (← →, Escape), zoom
// (+ − 0, double-click, wheel), movie playback with seeking, and an info panel (i).

import { api } from './api.js';
import { el, button, formatDate, formatBytes, formatDuration } from './util.js';

export class Viewer {
  // source: PagedSource; actions: { favorite(asset), remove(asset), restore(asset) }
  constructor(dialog, actions) {
    this.dialog = dialog;
    this.actions = actions;
    this.zoom = 1;
    this.showInfo = false;
    dialog.addEventListener('keydown', (event) => this.onKey(event));
    dialog.addEventListener('close', () => { this.dialog.replaceChildren(); this.onClose?.(this.index); });
  }

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
    this.zoom = 1;
    const base = `/api/assets/${encodeURIComponent(asset.localIdentifier)}`;
    let media;
    if (asset.mediaType === 'video') {
      media = el('video', { src: `${base}/video`, controls: true, preload: 'metadata', 'aria-label': `${asset.originalFilename}, movie ${formatDuration(asset.duration)}` });
    } else {
      media = el('img', { src: `${base}/thumbnail?size=2048&mode=fit&v=${asset.version}`, alt: asset.originalFilename });
      media.addEventListener('dblclick', () => this.setZoom(this.zoom > 1 ? 1 : 2));
      media.addEventListener('wheel', (event) => { event.preventDefault(); this.setZoom(this.zoom * (event.deltaY < 0 ? 1.15 : 1 / 1.15)); }, { passive: false });
    }
    this.media = media;
    const bar = el('div', { class: 'viewer-bar' },
      el('span', { class: 'title' }, `${asset.originalFilename} · ${formatDate(asset.creationDate)}`),
      button(asset.isFavorite ? '♥ Favorite' : '♡ Favorite', async () => { await this.actions.favorite(asset); }, { ariaLabel: 'Favorite' }),
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
      ['Name', asset.originalFilename], ['Taken', formatDate(asset.creationDate)], ['Added', formatDate(asset.addedDate)],
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

  setZoom(zoom) {
    this.zoom = Math.min(8, Math.max(1, zoom));
    if (this.media?.tagName === 'IMG') this.media.style.transform = `scale(${this.zoom})`;
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
