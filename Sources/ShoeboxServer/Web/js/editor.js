// The photo editor: crop (free, original, square and common ratios; handles, drag, arrow keys),
// rotate, flip and straighten; light (exposure, contrast, highlights, shadows, saturation,
// warmth); filters; Revert to Original. The preview is drawn at screen size from the original
// with the library's own formulas (adjust.js); Save sends the adjustments and the library renders
// the full-size result from the original, so edits never stack losses and stay non-destructive.
// Movies get the trimmer (editors.js) on their original.

import { api } from './api.js';
import { el, button } from './util.js';
import { askToDiscardChanges } from './dialog.js';
import { trimMovie } from './editors.js';
import { LIGHT_KEYS, LIGHT_LIMITS, FILTERS, applyColor, changesColor, drawGeometry, normalized } from './adjust.js';

const PREVIEW_SIDE = 1600;          // px: the longest side of the original the preview draws from
const MINIMUM_CROP = 0.04;          // of each side
const ASPECTS = [
  { key: 'free', label: 'Free' }, { key: 'original', label: 'Original' }, { key: 'square', label: 'Square', ratio: 1 },
  { key: '4:3', label: '4:3', ratio: 4 / 3 }, { key: '3:2', label: '3:2', ratio: 3 / 2 }, { key: '16:9', label: '16:9', ratio: 16 / 9 },
];
const LIGHT_TITLES = { exposure: 'Exposure', contrast: 'Contrast', highlights: 'Highlights', shadows: 'Shadows', saturation: 'Saturation', warmth: 'Warmth' };
const FULL = Object.freeze({ x: 0, y: 0, width: 1, height: 1 });

export class PhotoEditor {
  constructor(dialog) {
    this.dialog = dialog;
    // Escape cancels the photo editor (asking first when something changed); the trimmer
    // (editors.js) answers its own cancel event.
    dialog.addEventListener('keydown', (event) => {
      if (event.key === 'Escape' && this.resolve) { event.preventDefault(); this.cancel(); }
    });
    dialog.addEventListener('cancel', (event) => {
      if (this.resolve) { event.preventDefault(); this.cancel(); }
    });
  }

  // Edits `asset`; resolves with the asset as saved or reverted, or null when cancelled.
  async edit(asset) {
    const path = `/api/assets/${encodeURIComponent(asset.localIdentifier)}`;
    const state = await api.get(`${path}/adjustments`);
    if (asset.mediaType === 'video') return this.trim(asset, path, state);
    this.asset = asset;
    this.path = path;
    this.state = state;
    const start = state.adjustments ?? {};
    this.adjustments = {
      rotation: start.rotation ?? 0, flip: !!start.flip, straighten: start.straighten ?? 0,
      crop: start.crop ? { ...start.crop } : { ...FULL }, light: { ...(start.light ?? {}) }, filter: start.filter ?? null,
    };
    this.opened = JSON.stringify(normalized(this.adjustments));
    this.aspect = 'free';
    this.portrait = false;
    this.tab = 'crop';
    this.source = await loadImage(`${path}/thumbnail?size=${PREVIEW_SIDE}&mode=fit&version=original&v=${encodeURIComponent(asset.version)}`);
    this.build();
    this.dialog.showModal();
    this.geometryChanged();
    return new Promise((resolve) => { this.resolve = resolve; });
  }

  // MARK: Movies

  async trim(asset, path, state) {
    const duration = state.originalDuration || asset.duration;
    // The trim is of the original: an edited movie's original (playable), else the movie.
    const videoURL = asset.hasAdjustments ? `${path}/video?version=original` : `${path}/video`;
    // The trimmer stays open saying "Trimming…" until the trimmed movie is made, then the viewer
    // plays it; an edited movie also offers Revert to Original.
    return trimMovie(this.dialog, {
      videoURL, duration, maximum: duration, initial: state.adjustments?.trim, confirmDiscard: true,
      save: (chosen) => api.put(`${path}/adjustments`, { trim: { start: round(chosen.start, 3), end: round(chosen.end, 3) } }),
      revert: asset.hasAdjustments ? () => api.delete(`${path}/adjustments`) : null,
    });
  }

  // MARK: Building

  build() {
    this.canvas = el('canvas', { class: 'editor-canvas', 'aria-label': 'Preview' });
    this.cropBox = el('div', { class: 'editor-crop', role: 'slider', tabindex: '0', 'aria-label': 'Crop area', 'aria-valuetext': '' },
      ...['nw', 'n', 'ne', 'e', 'se', 's', 'sw', 'w'].map((edge) => el('span', { class: `crop-handle ${edge}`, dataset: { edge } })));
    this.stage = el('div', { class: 'editor-stage' }, el('div', { class: 'editor-picture' }, this.canvas, this.cropBox));
    this.enableCropDrag();
    this.revertButton = button('Revert to Original', () => this.revert(), { className: 'button editor-revert' });
    this.revertButton.hidden = !this.asset.hasAdjustments;
    this.saveButton = button('Save', () => this.save(), { className: 'button primary' });
    this.status = el('span', { class: 'editor-status', role: 'status', 'aria-live': 'polite' });
    const header = el('div', { class: 'editor-bar' },
      button('Cancel', () => this.cancel()), el('span', { class: 'title' }, 'Edit'), this.status, this.revertButton, this.saveButton);
    this.tabs = el('div', { class: 'editor-tabs', role: 'tablist', 'aria-label': 'Tools' },
      ...[['crop', 'Crop'], ['adjust', 'Adjust'], ['filters', 'Filters']].map(([key, label]) =>
        el('button', { type: 'button', role: 'tab', class: 'editor-tab', id: `editor-tab-${key}`, 'aria-controls': `editor-panel-${key}`, onclick: () => this.showTab(key) }, label)));
    this.panels = {
      crop: this.cropPanel(),
      adjust: this.adjustPanel(),
      filters: el('div', { class: 'editor-panel filters', id: 'editor-panel-filters', role: 'tabpanel', 'aria-labelledby': 'editor-tab-filters' }),
    };
    this.dialog.replaceChildren(el('div', { class: 'editor-layout' }, header, this.stage,
      el('div', { class: 'editor-tools' }, this.tabs, ...Object.values(this.panels))));
    this.showTab(this.tab);
    this.resizeObserver?.disconnect();
    this.resizeObserver = new ResizeObserver(() => this.draw());
    this.resizeObserver.observe(this.stage);
  }

  cropPanel() {
    this.aspectButtons = ASPECTS.map(({ key, label }) => {
      const chosen = button(label, () => this.setAspect(key), { className: 'button aspect' });
      chosen.dataset.aspect = key;
      return chosen;
    });
    this.orientationButton = button('Portrait', () => { this.portrait = !this.portrait; this.setAspect(this.aspect); }, { className: 'button aspect-orientation' });
    this.straightenInput = el('input', { type: 'range', min: '-45', max: '45', step: '0.1', value: String(this.adjustments.straighten), 'aria-label': 'Straighten' });
    this.straightenOutput = el('output', { class: 'slider-value' });
    this.straightenInput.addEventListener('input', () => {
      this.adjustments.straighten = Number(this.straightenInput.value);
      this.geometryChanged();
    });
    this.straightenInput.addEventListener('dblclick', () => { this.straightenInput.value = '0'; this.adjustments.straighten = 0; this.geometryChanged(); });
    return el('div', { class: 'editor-panel crop', id: 'editor-panel-crop', role: 'tabpanel', 'aria-labelledby': 'editor-tab-crop' },
      el('div', { class: 'editor-row' },
        button('⟲ Rotate', () => this.rotate(-90), { ariaLabel: 'Rotate left' }),
        button('⟳', () => this.rotate(90), { ariaLabel: 'Rotate right' }),
        button('⇋ Flip', () => { this.adjustments.flip = !this.adjustments.flip; this.adjustments.crop = mirrored(this.adjustments.crop); this.geometryChanged(); }, { ariaLabel: 'Flip' }),
        button('Reset', () => this.resetGeometry(), { ariaLabel: 'Reset crop and straighten' })),
      el('div', { class: 'editor-row aspects', role: 'group', 'aria-label': 'Aspect ratio' }, ...this.aspectButtons, this.orientationButton),
      el('label', { class: 'editor-slider' }, el('span', {}, 'Straighten'), this.straightenInput, this.straightenOutput));
  }

  adjustPanel() {
    this.lightInputs = {};
    const rows = LIGHT_KEYS.map((key) => {
      const limit = LIGHT_LIMITS[key];
      const input = el('input', { type: 'range', min: String(-limit), max: String(limit), step: '0.01', value: String(this.adjustments.light[key] ?? 0), 'aria-label': LIGHT_TITLES[key] });
      const output = el('output', { class: 'slider-value' });
      const show = () => { output.textContent = formatSigned(Number(input.value)); };
      input.addEventListener('input', () => { this.adjustments.light[key] = Number(input.value); show(); this.colorChanged(); });
      input.addEventListener('dblclick', () => { input.value = '0'; this.adjustments.light[key] = 0; show(); this.colorChanged(); });
      show();
      this.lightInputs[key] = input;
      return el('label', { class: 'editor-slider' }, el('span', {}, LIGHT_TITLES[key]), input, output);
    });
    return el('div', { class: 'editor-panel adjust', id: 'editor-panel-adjust', role: 'tabpanel', 'aria-labelledby': 'editor-tab-adjust' },
      ...rows, button('Reset Light', () => this.resetLight()));
  }

  // The filter strip: each filter's look on a small copy of the photo as it is now.
  filtersPanel() {
    const panel = this.panels.filters;
    const small = shrink(drawRegion(document.createElement('canvas'), this.geometry, this.adjustments.crop), 96);
    const base = small.getContext('2d').getImageData(0, 0, small.width, small.height);
    const choices = [null, ...Object.keys(FILTERS)].map((name) => {
      const preview = el('canvas', { width: small.width, height: small.height, 'aria-hidden': 'true' });
      const pixels = new ImageData(new Uint8ClampedArray(base.data), base.width, base.height);
      preview.getContext('2d').putImageData(applyColor(pixels, this.adjustments.light, name), 0, 0);
      const title = name ? (this.state.filters.find((filter) => filter.name === name)?.title ?? name) : 'Original';
      return el('button', {
        type: 'button', class: 'filter-choice', 'aria-pressed': String((this.adjustments.filter ?? null) === name), dataset: { filter: name ?? '' },
        onclick: () => { this.adjustments.filter = name; this.colorChanged(); this.markFilter(); },
      }, preview, el('span', {}, title));
    });
    panel.replaceChildren(...choices);
  }

  markFilter() {
    for (const choice of this.panels.filters.querySelectorAll('.filter-choice')) {
      choice.setAttribute('aria-pressed', String((choice.dataset.filter || null) === (this.adjustments.filter ?? null)));
    }
  }

  showTab(key) {
    this.tab = key;
    for (const tab of this.tabs.children) tab.setAttribute('aria-selected', String(tab.id === `editor-tab-${key}`));
    for (const [name, panel] of Object.entries(this.panels)) panel.hidden = name !== key;
    if (key === 'filters' && this.geometry) this.filtersPanel();
    this.draw();
    if (key === 'crop') this.cropBox.focus({ preventScroll: true });
  }

  // MARK: Geometry

  rotate(degrees) {
    const quarter = degrees > 0 ? 1 : -1;
    const a = this.adjustments;
    // The crop turns with the photo: a flipped photo turns the other way under its mirror.
    a.crop = turnedCrop(a.crop, a.flip ? -quarter : quarter);
    a.rotation = ((a.rotation + degrees) % 360 + 360) % 360;
    if (this.aspect !== 'free' && this.aspect !== 'square') this.portrait = !this.portrait;
    this.geometryChanged();
  }

  resetGeometry() {
    Object.assign(this.adjustments, { rotation: 0, flip: false, straighten: 0, crop: { ...FULL } });
    this.aspect = 'free';
    this.straightenInput.value = '0';
    this.geometryChanged();
  }

  resetLight() {
    this.adjustments.light = {};
    for (const input of Object.values(this.lightInputs)) { input.value = '0'; input.dispatchEvent(new Event('input')); }
  }

  // The photo turned, flipped and straightened (before the crop), at preview size; its pixels
  // are kept so colour changes redraw from them.
  geometryChanged() {
    const a = this.adjustments;
    this.geometry = drawGeometry(this.source, this.source.naturalWidth, this.source.naturalHeight, a);
    this.geometryPixels = this.geometry.getContext('2d', { willReadFrequently: true }).getImageData(0, 0, this.geometry.width, this.geometry.height);
    this.straightenInput.value = String(a.straighten);
    this.straightenOutput.textContent = `${a.straighten.toFixed(1)}°`;
    if (this.aspect !== 'free') this.applyAspect(false);
    this.colorChanged();
  }

  // The aspect ratio of the crop, in pixels of the turned photo.
  ratio() {
    const choice = ASPECTS.find((aspect) => aspect.key === this.aspect);
    if (!choice || this.aspect === 'free') return null;
    const base = this.aspect === 'original' ? this.geometry.width / this.geometry.height : choice.ratio;
    const landscape = base >= 1 ? base : 1 / base;
    return this.portrait ? 1 / landscape : landscape;
  }

  setAspect(key) {
    if (key !== this.aspect) {
      this.aspect = key;
      // A new ratio starts in the photo's own orientation.
      if (key === 'original') this.portrait = this.geometry.height > this.geometry.width;
    }
    this.applyAspect(true);
    this.placeCropBox();
  }

  // Fits the crop to the ratio: the largest such rectangle centred where the crop is (or, when
  // `fresh`, centred on the photo).
  applyAspect(fresh) {
    for (const chosen of this.aspectButtons) chosen.setAttribute('aria-pressed', String(chosen.dataset.aspect === this.aspect));
    this.orientationButton.hidden = this.aspect === 'free' || this.aspect === 'square';
    this.orientationButton.textContent = this.portrait ? 'Portrait' : 'Landscape';
    const ratio = this.ratio();
    if (!ratio) return;
    const crop = fresh ? FULL : this.adjustments.crop;
    const unitRatio = ratio * this.geometry.height / this.geometry.width;  // width/height in unit coordinates
    let width = crop.width, height = width / unitRatio;
    if (height > crop.height) { height = crop.height; width = height * unitRatio; }
    const centreX = crop.x + crop.width / 2, centreY = crop.y + crop.height / 2;
    this.adjustments.crop = clampCrop({ x: centreX - width / 2, y: centreY - height / 2, width, height });
  }

  enableCropDrag() {
    let drag = null;
    this.cropBox.addEventListener('pointerdown', (event) => {
      event.preventDefault();
      const edge = event.target.dataset?.edge ?? 'move';
      drag = { edge, x: event.clientX, y: event.clientY, crop: { ...this.adjustments.crop } };
      this.cropBox.setPointerCapture(event.pointerId);
    });
    this.cropBox.addEventListener('pointermove', (event) => {
      if (!drag) return;
      const box = this.canvas.getBoundingClientRect();
      const dx = (event.clientX - drag.x) / box.width, dy = (event.clientY - drag.y) / box.height;
      this.adjustments.crop = this.dragged(drag.crop, drag.edge, dx, dy);
      this.placeCropBox();
    });
    const end = () => { drag = null; };
    this.cropBox.addEventListener('pointerup', end);
    this.cropBox.addEventListener('pointercancel', end);
    this.cropBox.addEventListener('keydown', (event) => {
      const step = event.shiftKey ? 0.05 : 0.01;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (!moves[event.key]) return;
      event.preventDefault();
      this.adjustments.crop = this.dragged(this.adjustments.crop, 'move', ...moves[event.key]);
      this.placeCropBox();
    });
  }

  // The crop after dragging `edge` (or the whole box) by dx, dy of the photo's width and height.
  dragged(start, edge, dx, dy) {
    if (edge === 'move') {
      return { ...start, x: Math.min(1 - start.width, Math.max(0, start.x + dx)), y: Math.min(1 - start.height, Math.max(0, start.y + dy)) };
    }
    let left = start.x, top = start.y, right = start.x + start.width, bottom = start.y + start.height;
    if (edge.includes('w')) left = Math.min(right - MINIMUM_CROP, Math.max(0, left + dx));
    if (edge.includes('e')) right = Math.max(left + MINIMUM_CROP, Math.min(1, right + dx));
    if (edge.includes('n')) top = Math.min(bottom - MINIMUM_CROP, Math.max(0, top + dy));
    if (edge.includes('s')) bottom = Math.max(top + MINIMUM_CROP, Math.min(1, bottom + dy));
    const ratio = this.ratio();
    if (!ratio) return { x: left, y: top, width: right - left, height: bottom - top };
    // A fixed ratio: the dragged side leads, the other follows, anchored at the opposite edge or corner.
    const unitRatio = ratio * this.geometry.height / this.geometry.width;
    let width = right - left, height = bottom - top;
    const horizontal = edge.includes('e') || edge.includes('w');
    const vertical = edge.includes('n') || edge.includes('s');
    if (horizontal && (!vertical || width / unitRatio >= height)) height = width / unitRatio; else width = height * unitRatio;
    // Held inside the photo on the anchored side.
    const roomX = edge.includes('w') ? right : edge.includes('e') ? 1 - left : Math.min(start.x + start.width / 2, 1 - start.x - start.width / 2) * 2;
    const roomY = edge.includes('n') ? bottom : edge.includes('s') ? 1 - top : Math.min(start.y + start.height / 2, 1 - start.y - start.height / 2) * 2;
    const fit = Math.min(1, roomX / width, roomY / height);
    width *= fit;
    height *= fit;
    const x = edge.includes('w') ? right - width : edge.includes('e') ? left : start.x + (start.width - width) / 2;
    const y = edge.includes('n') ? bottom - height : edge.includes('s') ? top : start.y + (start.height - height) / 2;
    return clampCrop({ x, y, width, height });
  }

  // MARK: Drawing

  colorChanged() {
    if (this.frame) return;
    this.frame = requestAnimationFrame(() => {
      this.frame = null;
      const a = this.adjustments;
      const pixels = new ImageData(new Uint8ClampedArray(this.geometryPixels.data), this.geometryPixels.width, this.geometryPixels.height);
      this.colored = document.createElement('canvas');
      this.colored.width = pixels.width;
      this.colored.height = pixels.height;
      this.colored.getContext('2d').putImageData(changesColor(a.light, a.filter) ? applyColor(pixels, a.light, a.filter) : pixels, 0, 0);
      this.draw();
      this.status.textContent = '';
      this.dialog.dataset.previewReady = String(Number(this.dialog.dataset.previewReady ?? 0) + 1);
    });
  }

  // The photo on screen: whole with the crop box over it on the Crop tab, cropped elsewhere.
  draw() {
    if (!this.colored) return;
    const cropping = this.tab === 'crop';
    drawRegion(this.canvas, this.colored, cropping ? FULL : this.adjustments.crop);
    // Fitted to the stage, but never larger than the photo itself: at most one pixel of the
    // original per CSS pixel, so a small photo is not blown up and blurred.
    const room = this.stage.getBoundingClientRect();
    const fit = Math.min((room.width - 32) / this.canvas.width, (room.height - 32) / this.canvas.height);
    const turned = this.adjustments.rotation % 180 !== 0;
    const originalSide = turned ? this.state.originalHeight : this.state.originalWidth;
    const natural = (originalSide * (cropping ? 1 : this.adjustments.crop.width)) / this.canvas.width;
    const scale = natural > 0 ? Math.min(fit, natural) : fit;
    this.canvas.style.width = `${Math.max(1, this.canvas.width * scale)}px`;
    this.canvas.style.height = `${Math.max(1, this.canvas.height * scale)}px`;
    this.cropBox.hidden = !cropping;
    this.placeCropBox();
  }

  // The crop box over the whole photo (the Crop tab): moving it redraws no pixels.
  placeCropBox() {
    if (this.tab !== 'crop') return;
    const crop = this.adjustments.crop;
    Object.assign(this.cropBox.style, {
      left: `${crop.x * 100}%`, top: `${crop.y * 100}%`, width: `${crop.width * 100}%`, height: `${crop.height * 100}%`,
    });
    // In pixels of the photo as turned now: a quarter turn swaps its sides.
    const turned = this.adjustments.rotation % 180 !== 0;
    const [fullWidth, fullHeight] = turned ? [this.state.originalHeight, this.state.originalWidth] : [this.state.originalWidth, this.state.originalHeight];
    const width = Math.round(crop.width * fullWidth), height = Math.round(crop.height * fullHeight);
    this.cropBox.setAttribute('aria-valuetext', `${Math.round(crop.width * 100)} % by ${Math.round(crop.height * 100)} %, about ${width} × ${height} pixels`);
  }

  // MARK: Saving

  async save() {
    const body = normalized(this.adjustments);
    this.saveButton.disabled = true;
    this.status.textContent = 'Saving…';
    try {
      const saved = Object.keys(body).length ? await api.put(`${this.path}/adjustments`, body)
        : this.asset.hasAdjustments ? await api.delete(`${this.path}/adjustments`) : this.asset;
      this.finish(saved);
    } catch (error) {
      this.status.textContent = `Not saved: ${error.message}`;
      this.saveButton.disabled = false;
    }
  }

  async revert() {
    this.revertButton.disabled = true;
    this.status.textContent = 'Reverting…';
    try {
      this.finish(await api.delete(`${this.path}/adjustments`));
    } catch (error) {
      this.status.textContent = `Not reverted: ${error.message}`;
      this.revertButton.disabled = false;
    }
  }

  // Whether the edit differs from the one the editor opened with.
  hasChanges() { return JSON.stringify(normalized(this.adjustments)) !== this.opened; }

  // Cancel (the button, or Escape): leaves at once when nothing changed, else asks first, as
  // Photos does; the edit goes on when the user keeps it.
  async cancel() {
    if (!this.resolve || this.asking) return;
    if (this.hasChanges()) {
      this.asking = true;
      try {
        const discard = await askToDiscardChanges('photo');
        if (!discard) return;
      } finally {
        this.asking = false;
      }
    }
    this.finish(null);
  }

  finish(result) {
    this.resizeObserver?.disconnect();
    if (this.dialog.open) this.dialog.close();
    this.dialog.replaceChildren();
    delete this.dialog.dataset.previewReady;
    const resolve = this.resolve;
    this.resolve = null;
    resolve?.(result);
  }
}

function loadImage(url) {
  return new Promise((resolve, reject) => {
    const image = new Image();
    image.onload = () => resolve(image);
    image.onerror = () => reject(new Error('the photo could not be loaded'));
    image.src = url;
  });
}

// Draws the part `rect` (unit coordinates) of `source` into `target`, sized to it; returns `target`.
function drawRegion(target, source, rect) {
  target.width = Math.max(1, Math.round(rect.width * source.width));
  target.height = Math.max(1, Math.round(rect.height * source.height));
  target.getContext('2d').drawImage(source, rect.x * source.width, rect.y * source.height, target.width, target.height, 0, 0, target.width, target.height);
  return target;
}

function shrink(canvas, side) {
  const scale = Math.min(1, side / Math.max(canvas.width, canvas.height));
  const out = document.createElement('canvas');
  out.width = Math.max(1, Math.round(canvas.width * scale));
  out.height = Math.max(1, Math.round(canvas.height * scale));
  out.getContext('2d', { willReadFrequently: true }).drawImage(canvas, 0, 0, out.width, out.height);
  return out;
}

// A crop after the photo under it turns a quarter clockwise (1) or anticlockwise (-1).
function turnedCrop(crop, quarter) {
  return quarter > 0
    ? { x: 1 - crop.y - crop.height, y: crop.x, width: crop.height, height: crop.width }
    : { x: crop.y, y: 1 - crop.x - crop.width, width: crop.height, height: crop.width };
}

const mirrored = (crop) => ({ ...crop, x: 1 - crop.x - crop.width });

function clampCrop(crop) {
  const width = Math.min(1, Math.max(MINIMUM_CROP, crop.width)), height = Math.min(1, Math.max(MINIMUM_CROP, crop.height));
  return { x: Math.min(1 - width, Math.max(0, crop.x)), y: Math.min(1 - height, Math.max(0, crop.y)), width, height };
}

const round = (value, places) => Math.round(value * 10 ** places) / 10 ** places;
const formatSigned = (value) => (value > 0 ? `+${value.toFixed(2)}` : value.toFixed(2));
