// The viewer: one asset at a time, full size, with keyboard navigation (← → always move between
// items, a movie too; Escape), zoom (+ − 0, double-click, wheel) and panning by dragging the zoomed
// image, a Favorite toggle (F) kept current by change events, Delete, Edit (E), a slideshow (S,
// Space pauses), movie playback with seeking (its controls, Shift+← → by 5 s, J and L by 10 s),
// and an info panel (i). On a touch screen:
// a swipe moves to the next or previous asset, a pinch zooms, one finger pans the zoomed photo and
// a double tap zooms in or out.

import { sharedLibraryLine } from './shared-library.js';
import { pointMap } from './worldmap.js';
import { adjustDate, adjustLocation, describeEditors, revertToFile } from './describe.js';
import { api } from './api.js';
import { el, button, formatDate, formatTaken, formatBytes, formatDuration } from './util.js';
import { SLOP, isDoubleTap } from './gestures.js';
import { showToast } from './toast.js';

const SWIPE_DISTANCE = 60;  // px sideways that make a swipe (or less, flicked fast)
const MAX_ZOOM = 8;
const SEEK_SHORT = 5;       // s: Shift+← →
const SEEK_LONG = 10;       // s: J, L

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
      this.slideshow = false;
      clearTimeout(this.slideTimer);
      // A note shown over the viewer (a deletion's Undo) goes on showing over the page.
      const toasts = this.dialog.querySelector(':scope > .toasts');
      if (toasts) document.body.append(toasts);
      this.dialog.replaceChildren(...this.kept());
      this.media = null;
      this.asset = null;
      this.zoom = 1;
      this.pan = { x: 0, y: 0 };
      this.onClose?.(this.index);
    });
  }

  get isOpen() { return this.dialog.open; }

  open(source, index) {
    this.frame = null;
    this.source = source;
    this.index = index;
    if (!this.dialog.open) this.dialog.showModal();
    this.show();
  }

  async show() {
    // A viewer closed while its photo's page was still loading shows nothing (and names no URL).
    if (!this.dialog.open) return;
    // A frame of a burst chosen in the strip, else the grid's item (a burst's key photo).
    const item = this.source.assetAt(this.index);
    const asset = this.frame ?? item;
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
      media = el('video', { src: `${base}/video?v=${encodeURIComponent(asset.version)}`, controls: true, preload: 'metadata', 'aria-label': `${asset.originalFilename}, movie ${formatDuration(asset.duration)}` });
    } else {
      // Not draggable: a drag on the image pans it (the browser's own image drag would take it).
      media = el('img', { src: `${base}/thumbnail?size=2048&mode=fit&v=${asset.version}`, alt: asset.originalFilename, draggable: 'false' });
      media.addEventListener('dblclick', () => { if (!this.recentDoubleTap()) this.setZoom(this.zoom > 1 ? 1 : 2); });
      media.addEventListener('wheel', (event) => { event.preventDefault(); this.setZoom(this.zoom * (event.deltaY < 0 ? 1.15 : 1 / 1.15)); }, { passive: false });
    }
    this.media = media;
    const live = asset.mediaType === 'image' && asset.mediaSubtypes?.includes('live');
    const motion = live ? this.enableLive(media, base) : null;
    // A partner's photo (asset.sharedBy) is theirs: seen, played and downloaded, never changed here.
    const theirs = asset.sharedBy ?? null;
    this.favoriteButton = theirs ? null : button('', () => this.toggleFavorite(), { ariaLabel: 'Favorite' });
    this.renderFavorite();
    const bar = el('div', { class: 'viewer-bar' },
      el('span', { class: 'title' }, `${asset.originalFilename} · ${formatTaken(asset)}`),
      sharedLibraryLine(asset),
      theirs ? el('span', { class: 'shared-by' }, `Shared by ${theirs.displayName}`) : this.favoriteButton,
      live ? button('LIVE', () => motion.play(), { className: 'button live', ariaLabel: 'Play Live Photo' }) : null,
      this.frame && !theirs && !asset.representsBurst && !asset.isTrashed && !asset.isHidden
        ? button('Key Photo', () => this.makeKeyPhoto(asset), { ariaLabel: 'Make this frame the key photo' }) : null,
      theirs ? null : asset.isTrashed ? button('Restore', async () => { await this.actions.restore(asset); this.dialog.close(); })
        : button('Delete', () => this.deleteShown()),
      // On a phone the bar has room for a glyph, not the word (the name stays for screen readers).
      button([el('span', { class: 'phone-glyph', 'aria-hidden': 'true' }, this.slideshow ? '❚❚' : '▶'),
        el('span', { class: 'button-word' }, this.slideshow ? 'Pause' : 'Slideshow')],
      () => this.toggleSlideshow(), { ariaLabel: this.slideshow ? 'Pause Slideshow' : 'Play Slideshow' }),
      asset.isTrashed || theirs || !this.actions.edit ? null : button([el('span', { class: 'phone-glyph', 'aria-hidden': 'true' }, '✎'), el('span', { class: 'button-word' }, 'Edit')],
        () => this.editShown(), { ariaLabel: 'Edit' }),
      asset.isTrashed ? null : button([el('span', { class: 'phone-glyph', 'aria-hidden': 'true' }, '↓'), el('span', { class: 'button-word' }, 'Download')],
        () => this.actions.download(asset), { ariaLabel: 'Download' }),
      button('Info', () => { this.showInfo = !this.showInfo; this.show(); }, { ariaLabel: 'Info' }),
      button('Close', () => this.dialog.close()));
    const stage = el('div', { class: 'viewer-stage' }, bar,
      el('button', { type: 'button', class: 'viewer-nav previous', 'aria-label': 'Previous', onclick: () => this.next(-1) }, '‹'),
      media,
      el('button', { type: 'button', class: 'viewer-nav next', 'aria-label': 'Next', onclick: () => this.next(1) }, '›'));
    this.enableGestures(stage, media);
    if (asset.burstIdentifier && (this.frame || item.burstCount > 1)) stage.append(this.burstStrip(asset));
    const layout = el('div', { class: 'viewer-layout' }, stage);
    if (this.showInfo) layout.append(await this.infoPanel(asset));
    this.dialog.replaceChildren(...this.kept(), layout);
    if (this.slideshow) {
      // The stage takes the keys during a slideshow: Space there pauses, not a focused button.
      stage.tabIndex = -1;
      stage.focus();
      this.scheduleSlide(media);
    } else {
      (asset.mediaType === 'video' ? media : bar.querySelector('button:last-child')).focus();
    }
  }

  // What stays when the viewer draws again: its banners (status.js) and notes (toast.js).
  kept() { return [...this.dialog.children].filter((child) => child.matches('.banner-area, .toasts')); }

  // Deletes the photo shown (the button, or the Delete key): the grid's burst goes whole, a frame
  // chosen in the strip alone; the viewer goes on to the next.
  async deleteShown() {
    const asset = this.asset;
    if (!asset || asset.isTrashed || asset.sharedBy) return;
    const whole = !this.frame && asset.burstCount > 1;
    this.frame = null;
    await this.actions.remove(asset, whole);
    this.next(1, true);
  }

  // Opens the editor on the photo or movie shown (the button, or E); a slideshow stops first.
  editShown() {
    const asset = this.asset;
    if (!asset || asset.isTrashed || asset.sharedBy || !this.actions.edit) return;
    if (this.slideshow) this.toggleSlideshow();
    this.actions.edit(asset);
  }

  // The slideshow: each photo for a few seconds, a movie (muted) to its end; it stops at the last
  // item, when the viewer closes, or on Pause (Space).
  static SLIDE_SECONDS = 4;

  toggleSlideshow() {
    this.slideshow = !this.slideshow;
    clearTimeout(this.slideTimer);
    this.show();
  }

  scheduleSlide(media) {
    clearTimeout(this.slideTimer);
    const shown = this.asset;
    const advance = () => {
      if (!this.slideshow || this.asset !== shown || !this.dialog.open) return;
      if (!this.next(1)) { this.slideshow = false; this.show(); }
    };
    if (media.tagName === 'VIDEO') {
      media.muted = true;
      media.addEventListener('ended', advance, { once: true });
      media.play().catch(() => { this.slideTimer = setTimeout(advance, Viewer.SLIDE_SECONDS * 1000); });
      // A movie that never ends (or a very long one) gives way after a minute.
      this.slideTimer = setTimeout(advance, 60_000);
    } else {
      this.slideTimer = setTimeout(advance, Viewer.SLIDE_SECONDS * 1000);
    }
  }

  // A burst's frames under the photo, in the order taken: a frame shows when chosen (its own
  // Delete and a Key Photo button with it); the key photo is marked.
  burstStrip(shown) {
    const strip = el('div', { class: 'burst-strip', role: 'group', 'aria-label': 'Burst frames' });
    const burst = shown.burstIdentifier;
    api.get(`/api/assets?burst=${encodeURIComponent(burst)}&limit=1000`).then((page) => {
      if (this.asset?.burstIdentifier !== burst) return;
      const key = this.source.assetAt(this.index);
      page.assets.forEach((frame, index) => {
        const current = frame.localIdentifier === shown.localIdentifier;
        const label = `Frame ${index + 1} of ${page.assets.length}${frame.representsBurst ? ', key photo' : ''}`;
        strip.append(el('button', {
          type: 'button', class: `burst-frame${frame.representsBurst ? ' key' : ''}`, 'aria-label': label, 'aria-pressed': String(current),
          onclick: () => { this.frame = frame.localIdentifier === key?.localIdentifier ? null : frame; this.show(); },
        }, el('img', { src: `/api/assets/${encodeURIComponent(frame.localIdentifier)}/thumbnail?size=256&mode=fill&v=${frame.version}`, alt: '', draggable: 'false' })));
      });
      strip.querySelector('[aria-pressed="true"]')?.scrollIntoView({ block: 'nearest', inline: 'center' });
    }).catch((error) => console.error('burst frames', error));
    return strip;
  }

  async makeKeyPhoto(frame) {
    try {
      this.frame = await this.actions.makeKeyPhoto(frame);
    } catch (error) {
      console.error('key photo failed', error);
    }
    this.show();
  }

  // A Live Photo plays its movie, muted and once, while the mouse rests on the photo or a finger
  // presses it (as in Photos), or from the LIVE button; the photo comes back when it ends or the
  // pointer leaves. Not while zoomed: then a press pans.
  enableLive(img, base) {
    let video = null;
    let timer = null;
    // Once per visit: the photo that comes back under a resting mouse does not play again
    // until the mouse has left it.
    let played = false;
    const stop = () => {
      clearTimeout(timer);
      if (!video) return;
      video.pause();
      if (video.isConnected) video.replaceWith(img);
      video.removeAttribute('src');
      video = null;
    };
    const play = () => {
      clearTimeout(timer);
      if (video || this.zoom > 1 || !img.isConnected) return;
      played = true;
      // The photo stays until the motion has its first frame: an empty video element shows
      // black (the photo as its poster covers the moment it is swapped in).
      const motion = el('video', {
        src: `${base}/video?v=${encodeURIComponent(this.asset?.version ?? '')}`, class: 'live-motion', playsinline: true,
        preload: 'auto', poster: img.currentSrc || img.src, 'aria-label': 'Live Photo motion',
      });
      video = motion;
      motion.muted = true;
      motion.addEventListener('ended', stop);
      motion.addEventListener('pointerleave', () => { played = false; stop(); });
      motion.addEventListener('pointerup', (event) => { if (event.pointerType !== 'mouse') stop(); });
      motion.addEventListener('error', stop);
      motion.addEventListener('loadeddata', () => {
        if (video !== motion || !img.isConnected) return;
        img.replaceWith(motion);
        motion.play().catch(stop);
      }, { once: true });
      // Until then a pointer leaving the photo, or a finger lifting, stops it as it would the motion.
      img.addEventListener('pointerleave', () => { if (video === motion && !motion.isConnected) stop(); }, { once: true });
      motion.load();
    };
    const later = () => { clearTimeout(timer); timer = setTimeout(play, 250); };
    // A mouse that comes to rest on the photo: entering it, or moving over it (a photo drawn
    // again under the mouse gets no enter).
    for (const type of ['pointerenter', 'pointermove']) {
      img.addEventListener(type, (event) => { if (event.pointerType === 'mouse' && !played) later(); });
    }
    img.addEventListener('pointerdown', (event) => { if (event.pointerType !== 'mouse') later(); });
    for (const type of ['pointerup', 'pointercancel']) img.addEventListener(type, () => clearTimeout(timer));
    img.addEventListener('pointerleave', () => { clearTimeout(timer); played = false; });
    return { play };
  }

  async infoPanel(asset) {
    const panel = el('aside', { class: 'info-panel', 'aria-label': 'Info' }, el('h2', {}, 'Info'));
    // What the person may correct: their own photos (a partner's are theirs), not in Recently Deleted.
    const editable = !asset.sharedBy && !asset.isTrashed;
    const userSet = asset.userSet ?? [];
    const corrected = (field, label) => userSet.includes(field)
      ? [el('span', { class: 'user-set' }, ' · set by you '), button(`Revert to ${label}`, async () => this.updateInfo(await revertToFile(asset, field)), { className: 'link-button' })]
      : [];
    const taken = editable
      ? el('span', {}, formatTaken(asset, { withZone: true }), ' ',
        button('Adjust…', async () => { if (await adjustDate({ assets: [asset.localIdentifier] }, { count: 1, earliest: asset.localCreationDate })) await this.reloadInfo(asset); },
          { className: 'link-button', ariaLabel: 'Adjust Date and Time' }), ...corrected('creationDate', 'Camera’s Date'))
      : formatTaken(asset, { withZone: true });
    const rows = [
      ['Name', asset.originalFilename], ['Taken', taken], ['Added', formatDate(asset.addedDate)],
      ['Size', `${asset.pixelWidth} × ${asset.pixelHeight}`], ['File', `${fileKind(asset)}, ${formatBytes(asset.fileSize)}`],
    ];
    if (asset.mediaType === 'video') rows.push(['Length', formatDuration(asset.duration)]);
    const coordinates = asset.latitude != null ? `${asset.latitude.toFixed(5)}, ${asset.longitude.toFixed(5)}` : null;
    const place = coordinates ? (asset.place ? `${asset.place} (${coordinates})` : coordinates) : 'none';
    if (editable) {
      const current = coordinates ? { latitude: asset.latitude, longitude: asset.longitude, label: asset.place } : null;
      rows.push(['Location', el('span', {}, place, ' ',
        button(coordinates ? 'Adjust…' : 'Add…', async () => { if (await adjustLocation({ assets: [asset.localIdentifier] }, { count: 1, current })) await this.reloadInfo(asset); },
          { className: 'link-button', ariaLabel: 'Adjust Location' }), ...corrected('location', 'Camera’s Location'))]);
    } else if (coordinates) {
      rows.push(['Location', place]);
    }
    if (asset.mediaSubtypes?.includes('live')) rows.push(['Live Photo', 'rest the pointer on it or press it to play']);
    if (asset.burstIdentifier) rows.push(['Burst', asset.representsBurst ? 'key photo' : 'a frame (Key Photo makes it the one the grid shows)']);
    if (asset.hasAdjustments) rows.push(['Edited', 'yes (the original is kept)']);
    try {
      const detail = await api.get(`/api/assets/${encodeURIComponent(asset.localIdentifier)}`);
      const photo = detail.photo ?? {};
      if (photo.make || photo.model) rows.push(['Camera', cameraName(photo.make, photo.model)]);
      if (photo.lens) rows.push(['Lens', photo.lens]);
      if (photo.exposureTime) rows.push(['Exposure', photo.exposureTime < 1 ? `1/${Math.round(1 / photo.exposureTime)} s` : `${photo.exposureTime} s`]);
      if (photo.fNumber) rows.push(['Aperture', `ƒ/${photo.fNumber}`]);
      if (photo.isoSpeed) rows.push(['ISO', String(photo.isoSpeed)]);
      if (photo.focalLength) rows.push(['Focal length', `${photo.focalLength} mm`]);
      if (photo.flashFired != null) rows.push(['Flash', photo.flashFired ? 'fired' : 'off']);
      const movie = detail.movie;
      if (movie) rows.push(['Codecs', [movie.videoCodec, movie.audioCodec].filter(Boolean).join(' + ')], ['Frame rate', movie.frameRate ? `${movie.frameRate.toFixed(2)} fps` : '—']);
    } catch { /* the basic rows stand */ }
    if (editable) panel.append(describeEditors(asset, { changed: (updated) => this.updateInfo(updated) }));
    else if (asset.title || asset.caption || asset.keywords?.length || asset.rating) {
      rows.unshift(...[['Title', asset.title], ['Caption', asset.caption], ['Keywords', asset.keywords?.join(', ')], ['Rating', asset.rating ? '★'.repeat(asset.rating) : null]].filter(([, value]) => value));
    }
    panel.append(el('dl', {}, rows.flatMap(([term, value]) => [el('dt', {}, term), el('dd', {}, value)])));
    // Where it was taken, on a small map (offline outlines; nothing is fetched from elsewhere).
    if (asset.latitude != null) panel.append(await pointMap(asset.latitude, asset.longitude));
    return panel;
  }

  // A corrected asset (the server's answer): shown, put in the source, and Info drawn again.
  async updateInfo(asset) {
    this.assetChanged(asset);
    const title = this.dialog.querySelector('.viewer-bar .title');
    if (title && this.asset?.localIdentifier === asset.localIdentifier) title.textContent = `${asset.originalFilename} · ${formatTaken(asset)}`;
    if (!this.dialog.querySelector('.info-panel') || this.asset?.localIdentifier !== asset.localIdentifier) return;
    const drawn = await this.infoPanel(this.asset);
    // The field the person is typing in keeps its text, caret and focus across the redraw.
    const panel = this.dialog.querySelector('.info-panel');
    if (!panel) return;
    const active = document.activeElement;
    const kept = panel.contains(active) && active.name
      ? { name: active.name, value: active.value, start: active.selectionStart, end: active.selectionEnd } : null;
    panel.replaceWith(drawn);
    const field = kept && drawn.querySelector(`[name="${kept.name}"]`);
    if (field) {
      field.value = kept.value;
      field.focus();
      if (kept.start != null) field.setSelectionRange(kept.start, kept.end);
    }
  }

  // After a dialog changed it: the asset as the server has it now.
  async reloadInfo(asset) {
    try {
      await this.updateInfo((await api.get(`/api/assets/${encodeURIComponent(asset.localIdentifier)}`)).asset);
    } catch { /* the change event brings it */ }
  }

  // Favorite is a toggle showing the asset's current state (aria-pressed): a click shows the
  // opposite at once and asks for it; the answer — or a change event from anywhere — is what it
  // shows next. A request that fails says so in a note, and the heart shows the asset's true state
  // again (read again when the server answers, else the last known).
  async toggleFavorite() {
    const asset = this.asset;
    if (!asset || asset.sharedBy || this.favoriting) return;  // one request at a time: each one asks for the opposite of the last answer
    this.favoriting = true;
    const wanted = !asset.isFavorite;
    this.renderFavorite(wanted);
    try {
      const updated = await this.actions.favorite(asset, wanted);
      if (updated) this.assetChanged(updated);
    } catch (error) {
      this.renderFavorite();
      showToast(`${asset.originalFilename} was not ${wanted ? 'made a favorite' : 'taken out of Favorites'}: ${error.status === 0 ? 'Shoebox cannot be reached' : error.message}.`);
      try {
        const detail = await api.get(`/api/assets/${encodeURIComponent(asset.localIdentifier)}`);
        this.assetChanged(detail.asset);
      } catch { /* unreachable still: the last known state stands */ }
    } finally {
      this.favoriting = false;
    }
  }

  // Shows the shown asset's favorite state, or `on` while a change is on its way.
  renderFavorite(on = !!this.asset?.isFavorite) {
    if (!this.favoriteButton) return;
    // The word goes on a phone (app.css), to leave the title room; the button's name stays.
    this.favoriteButton.replaceChildren(on ? '♥' : '♡', el('span', { class: 'button-word' }, ' Favorite'));
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
    this.zoom = Math.min(MAX_ZOOM, Math.max(1, zoom));
    if (this.zoom === 1) this.pan = { x: 0, y: 0 };
    this.applyTransform();
  }

  // The stage's pointers: the mouse drags a zoomed photo; a finger pans it when zoomed and swipes
  // to the next or previous asset when not; two fingers pinch. The mouse's drag is captured so it
  // goes on outside the photo (a finger's always is).
  enableGestures(stage, media) {
    const pointers = new Map();  // pointerId → {x, y}
    let gesture = null;
    const begin = (event, continued = false) => {
      gesture = this.beginGesture([...pointers.values()], media);
      gesture.touch = event.pointerType !== 'mouse';
      gesture.continued = continued;  // the finger left of a pinch: it pans, but neither swipes nor taps
    };
    stage.addEventListener('pointerdown', (event) => {
      if (event.target.closest('button, .viewer-bar') || (event.pointerType === 'mouse' && event.button !== 0)) return;
      if (event.pointerType === 'mouse' && (this.zoom <= 1 || event.target !== media)) return;  // the mouse: dblclick, wheel, drag
      if (media.tagName === 'VIDEO' && event.target === media && event.clientY > media.getBoundingClientRect().bottom - 60) return;  // its controls
      if (pointers.size >= 2) return;
      if (event.pointerType === 'mouse') { event.preventDefault(); stage.setPointerCapture(event.pointerId); }
      if (gesture) this.endGesture(gesture, media, { interrupted: true });
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      begin(event);
    });
    stage.addEventListener('pointermove', (event) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      this.moveGesture(gesture, [...pointers.values()], media);
    });
    const up = (event) => {
      if (!pointers.has(event.pointerId)) return;
      pointers.delete(event.pointerId);
      const ended = gesture;
      gesture = null;
      this.endGesture(ended, media, { interrupted: pointers.size > 0 || event.type === 'pointercancel' });
      if (pointers.size) begin(event, true);  // a pinch that loses a finger pans on with the other
    };
    stage.addEventListener('pointerup', up);
    stage.addEventListener('pointercancel', up);
  }

  beginGesture(points, media) {
    const now = performance.now();
    media.classList.add('panning');  // no easing while the fingers lead
    if (points.length === 2 && media.tagName === 'IMG') {
      // The photo's point under the fingers' midpoint stays under it as they move and spread.
      const middle = midpoint(points);
      const centre = this.mediaCentre(media);
      return {
        kind: 'pinch', distance: Math.max(1, distance(points)), zoom: this.zoom,
        focus: { x: (middle.x - centre.x - this.pan.x) / this.zoom, y: (middle.y - centre.y - this.pan.y) / this.zoom },
      };
    }
    const [point] = points;
    if (this.zoom > 1) return { kind: 'pan', start: point, pan: { ...this.pan }, time: now, moved: false };
    return { kind: 'swipe', start: point, time: now, moved: false };
  }

  moveGesture(gesture, points, media) {
    if (!gesture) return;
    if (gesture.kind === 'pinch') {
      if (points.length < 2) return;
      const middle = midpoint(points);
      const centre = this.mediaCentre(media);
      this.zoom = Math.min(MAX_ZOOM, Math.max(1, gesture.zoom * distance(points) / gesture.distance));
      this.pan = { x: middle.x - centre.x - this.zoom * gesture.focus.x, y: middle.y - centre.y - this.zoom * gesture.focus.y };
      this.applyTransform();
      return;
    }
    const [point] = points;
    const dx = point.x - gesture.start.x, dy = point.y - gesture.start.y;
    if (Math.hypot(dx, dy) > SLOP) gesture.moved = true;
    if (gesture.kind === 'pan') {
      this.pan = { x: gesture.pan.x + dx, y: gesture.pan.y + dy };
      this.applyTransform();
    } else if (gesture.moved && Math.abs(dx) > Math.abs(dy)) {
      media.style.transform = `translateX(${dx}px)`;  // the photo follows the finger sideways
    }
    gesture.last = point;
  }

  endGesture(gesture, media, { interrupted }) {
    media.classList.remove('panning');
    if (!gesture) return;
    if (gesture.kind === 'pinch') {
      if (this.zoom < 1.05) this.setZoom(1);
      return;
    }
    const point = gesture.last ?? gesture.start;
    const dx = point.x - gesture.start.x, dy = point.y - gesture.start.y;
    const elapsed = performance.now() - gesture.time;
    if (gesture.kind === 'swipe') {
      const sideways = Math.abs(dx) > 1.5 * Math.abs(dy);
      const far = Math.abs(dx) > SWIPE_DISTANCE || (Math.abs(dx) > SWIPE_DISTANCE / 2 && elapsed < 250);
      if (!interrupted && !gesture.continued && sideways && far && this.next(dx < 0 ? 1 : -1)) return;
      media.style.transform = '';  // back in place
    }
    if (gesture.touch && !interrupted && !gesture.continued && !gesture.moved && elapsed < 300) {
      this.tapped({ ...gesture.start, time: performance.now() }, media);
    }
  }

  // A double tap on a photo zooms in on the tapped point, or back out.
  tapped(tap, media) {
    const last = this.lastTap;
    this.lastTap = tap;
    if (media.tagName !== 'IMG' || !isDoubleTap(last, tap)) return;
    this.lastTap = null;
    this.doubleTapAt = tap.time;
    if (this.zoom > 1) { this.setZoom(1); return; }
    const centre = this.mediaCentre(media);
    this.zoom = 2.5;
    this.pan = { x: (tap.x - centre.x) * (1 - this.zoom), y: (tap.y - centre.y) * (1 - this.zoom) };
    this.applyTransform();
  }

  // The browser may also report a double tap as a dblclick: the gesture has answered it already.
  recentDoubleTap() { return performance.now() - (this.doubleTapAt ?? -Infinity) < 600; }

  // Where the media's centre is on screen before its transform (offsets ignore transforms).
  mediaCentre(media) {
    const stage = media.parentElement.getBoundingClientRect();
    return { x: stage.left + media.offsetLeft + media.offsetWidth / 2, y: stage.top + media.offsetTop + media.offsetHeight / 2 };
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

  // Moves by `step`; false at either end (nothing to move to).
  next(step, afterRemoval = false) {
    this.frame = null;
    const count = this.source.count;
    if (count === 0) { this.dialog.close(); return false; }
    const index = afterRemoval ? Math.min(this.index, count - 1) : this.index + step;
    if (index < 0 || index >= count) return false;
    this.index = index;
    this.show();
    return true;
  }

  // Seeks the movie shown by `seconds` (Shift+← →, J and L); false when no movie is shown.
  seek(seconds) {
    const video = this.media;
    if (video?.tagName !== 'VIDEO' || !Number.isFinite(video.duration)) return false;
    video.currentTime = Math.min(video.duration, Math.max(0, video.currentTime + seconds));
    return true;
  }

  onKey(event) {
    if (event.target.closest?.('input, textarea, select')) return;
    // ← and → move between items whatever has focus (a movie too: its own keys would seek).
    const arrow = { ArrowRight: 1, ArrowLeft: -1 }[event.key];
    if (arrow && !event.altKey && !event.ctrlKey && !event.metaKey) {
      event.preventDefault();
      if (event.shiftKey) this.seek(arrow * SEEK_SHORT);
      else this.next(arrow);
      return;
    }
    switch (event.key) {
      case '+': case '=': this.setZoom(this.zoom * 1.25); break;
      case '-': this.setZoom(this.zoom / 1.25); break;
      case '0': this.setZoom(1); break;
      case 'i': this.showInfo = !this.showInfo; this.show(); break;
      case 'f': case 'F':
        if (!event.ctrlKey && !event.metaKey && !this.asset?.isTrashed) { event.preventDefault(); this.toggleFavorite(); }
        break;
      case 'e': case 'E':
        if (!event.ctrlKey && !event.metaKey && event.target.tagName !== 'INPUT') { event.preventDefault(); this.editShown(); }
        break;
      case 's': case 'S':
        if (!event.ctrlKey && !event.metaKey) { event.preventDefault(); this.toggleSlideshow(); }
        break;
      case 'j': case 'J': case 'l': case 'L':
        if (!event.ctrlKey && !event.metaKey && this.seek(/j/i.test(event.key) ? -SEEK_LONG : SEEK_LONG)) event.preventDefault();
        break;
      case ' ':
        // Space pauses or resumes a slideshow; outside one, a movie and the buttons keep their own Space.
        if (this.slideshow) { event.preventDefault(); this.toggleSlideshow(); }
        break;
      case 'Delete': case 'Backspace':
        if (event.target.tagName !== 'INPUT') { event.preventDefault(); this.deleteShown(); }
        break;
      default: break;
    }
  }
}

// "Canon EOS 40D", not "Canon Canon EOS 40D": a model that names its maker already stands alone.
function cameraName(make, model) {
  if (!make || !model) return make || model;
  const brand = make.trim().split(/\s+/)[0].toLowerCase();
  return model.toLowerCase().startsWith(brand) ? model : `${make} ${model}`;
}

// A file's kind in words ("JPEG", "HEIC", "QuickTime movie"), not its type identifier.
const FILE_KINDS = {
  'public.jpeg': 'JPEG', 'public.png': 'PNG', 'public.heic': 'HEIC', 'public.heif': 'HEIF', 'public.avif': 'AVIF', 'public.tiff': 'TIFF',
  'com.compuserve.gif': 'GIF', 'org.webmproject.webp': 'WebP', 'com.adobe.raw-image': 'DNG (raw)', 'public.mpeg-4': 'MP4 movie',
  'com.apple.quicktime-movie': 'QuickTime movie', 'org.webmproject.webm': 'WebM movie', 'public.avi': 'AVI movie', 'public.3gpp': '3GP movie',
  'org.matroska.mkv': 'Matroska movie',
};
function fileKind(asset) {
  const known = FILE_KINDS[asset.uniformTypeIdentifier];
  if (known) return known;
  const extension = asset.originalFilename?.match(/\.([^.]+)$/)?.[1];
  return extension ? extension.toUpperCase() : asset.uniformTypeIdentifier;
}

const distance = ([a, b]) => Math.hypot(a.x - b.x, a.y - b.y);
const midpoint = ([a, b]) => ({ x: (a.x + b.x) / 2, y: (a.y + b.y) / 2 });
