// The picker page: three panes (albums, a thumbnail grid, a preview with its "W x H" size) for
// the library sources, or the camera. Choose and Cancel resolve the session for the app waiting.

import { api, listen } from './api.js';
import { PagedSource, VirtualGrid } from './grid.js';
import { cropSquare, trimMovie } from './editors.js';
import { Camera } from './camera.js';
import { watchCameras } from './cameras.js';
import { el, button, formatDuration } from './util.js';

const $ = (selector) => document.querySelector(selector);
const sessionID = decodeURIComponent(location.pathname.split('/').pop());
const base = `/api/picker/sessions/${encodeURIComponent(sessionID)}/ui`;

let state = null;          // the session, as the server last described it
let source = null;         // the grid's assets
let previewed = null;      // the asset in the preview pane
let camera = null;

const panes = $('.panes');
const editor = $('.editor-dialog');

// The status line: a problem in red (the default), or work under way (`progress`) in grey.
function say(message, { progress = false } = {}) {
  const status = $('.status');
  status.textContent = message ?? '';
  status.classList.toggle('progress', progress);
}

async function call(path, body) {
  try {
    say('');
    const result = await api.post(`${base}/${path}`, body);
    if (result?.id) applyState(result);
    return result;
  } catch (error) {
    say(error.message);
    throw error;
  }
}

// MARK: State

function applyState(next) {
  state = next;
  const request = state.request;
  const limit = request.configuration.selectionLimit;
  const count = state.selection.length;
  const prompt = `${state.clientName ? `${state.clientName} wants` : 'Choose'} ${wanted(request)}`;
  $('.prompt-text').textContent = prompt;
  document.title = `${prompt} — Shoebox`;
  const minimum = request.configuration.minimumSelectionCount;
  $('.limit-text').textContent = request.sourceType === 'camera' ? '' : limit === 0
    ? `${count} selected · no limit${minimum > 1 ? ` · at least ${minimum}` : ''}`
    : `${count} of ${limit} selected${minimum > 1 ? ` · at least ${minimum}` : ''}`;
  const choose = $('[data-action="choose"]');
  choose.disabled = count < Math.max(minimum, 1) || Boolean(state.finished);
  choose.hidden = request.sourceType === 'camera';
  if (state.finished) finish();
  grid?.schedule(true);
  camera?.update(state);
  if (previewed) showPreview(previewed, false);
}

// What the session asks for, in words, from its media types and selection limit: "a photo",
// "a photo or video", "photos or videos", "up to 5 videos".
function wanted(request) {
  if (request.sourceType === 'camera') return request.camera?.captureMode === 'video' ? 'a video' : 'a photo';
  const types = request.mediaTypes?.length ? request.mediaTypes : ['public.image'];
  const kinds = [types.includes('public.image') && 'photo', types.includes('public.movie') && 'video'].filter(Boolean);
  const limit = request.configuration.selectionLimit;
  if (limit === 1) return `a ${kinds.join(' or ')}`;
  const many = kinds.map((kind) => `${kind}s`).join(' or ');
  return limit === 0 ? many : `up to ${limit} ${many}`;
}

function finish() {
  say('');  // "Preparing… 100 %" is over: the page says Done
  $('.finished-title').textContent = state.finished === 'picked' ? 'Done' : 'Cancelled';
  $('.finished').hidden = false;
  panes.hidden = true;
  $('.camera').hidden = true;
  $('.picker-bar').hidden = true;
  camera?.stop();
}

// MARK: Albums and the grid

const ordered = () => state?.request.configuration.selection === 'ordered';
const grid = new VirtualGrid($('.grid'), {
  thumbnail: (asset) => `${base}/assets/${encodeURIComponent(asset.localIdentifier)}/thumbnail?size=256&mode=fill&v=${asset.version}`,
  isSelected: (index, asset) => state?.selection.includes(asset.localIdentifier),
  orderOf: (asset) => {
    if (!state) return null;
    const position = state.selection.indexOf(asset.localIdentifier);
    return position >= 0 && (ordered() || state.request.configuration.selectionLimit !== 1) ? position + 1 : null;
  },
  onActivate: (index) => activate(index),
  onToggle: (index) => activate(index),
  onOpen: (index) => activate(index),
});

// One item asked for, nothing to edit: choosing it is the pick, as a tap in PHPicker is. A movie
// in UIImagePickerController's picker (the `imagePicker` interface) opens its preview instead,
// with Play, Cancel and Choose: only Choose picks it.
function picksAtOnce(asset) {
  if (!singleWithoutEditing() || state.selection.length !== 1) return false;
  return asset.mediaType !== 'video' || state.request.interface === 'phPicker';
}

function singleWithoutEditing() {
  return state.request.configuration.selectionLimit === 1 && !state.request.allowsEditing;
}

// A movie's own preview before it is picked (UIImagePickerController's), see picksAtOnce.
function previewsBeforePicking(asset) {
  return asset.mediaType === 'video' && singleWithoutEditing() && state.request.interface !== 'phPicker';
}

// A phone shows one pane: a tap that only selects stays in the grid (the count says what is
// chosen); the preview comes forward when there is something to do there — a movie's preview
// before it is picked, or an edit to make.
const onePane = window.matchMedia('(max-width: 760px)');
function opensPreviewPane(asset) {
  if (!onePane.matches) return true;
  const selected = state.selection.includes(asset.localIdentifier);
  return previewsBeforePicking(asset) || (state.request.allowsEditing && selected);
}

let albumIDs = [];

async function showAlbums() {
  const albums = await api.get(`${base}/albums`);
  albumIDs = albums.map((album) => album.id);
  const list = $('.albums-pane .album-list');
  list.replaceChildren(...albums.map((album) => el('li', {},
    el('button', { type: 'button', class: 'album-link', 'aria-current': 'false', 'aria-label': `${album.title}, ${album.count}`, onclick: () => openAlbum(album.id) },
      el('span', {}, album.title), el('span', { class: 'album-count' }, String(album.count))))));
  if (!albums.length) {
    list.replaceChildren(el('li', { class: 'hint' }, 'Nothing here can be picked.'));
    return;
  }
  await openAlbum(albumIDs.includes(state.album) ? state.album : albumIDs[0], false);
}

async function openAlbum(id, showGrid = true) {
  await call('album', { id });
  const first = await api.get(`${base}/assets?offset=0&limit=200`);
  source = new PagedSource({ pageURL: (offset, limit) => `${base}/assets?offset=${offset}&limit=${limit}`, count: first.count });
  first.assets.forEach((asset, position) => source.assets.set(position, asset));
  grid.setSource(source);
  clearPreview();
  document.querySelectorAll('.albums-pane .album-link').forEach((link, position) => link.setAttribute('aria-current', String(albumIDs[position] === id)));
  if (showGrid) panes.dataset.pane = 'grid';
}

// A click (or Space, or Enter) on a thumbnail, photo or movie alike: toggles its selection (with a
// limit of 1 it replaces the selected one) and shows it in the preview, where a movie plays and
// edits are made; with one item asked for and no editing, it picks it at once.
async function activate(index) {
  const asset = source?.assetAt(index);
  if (!asset || state.finished) return;
  const selected = state.selection.includes(asset.localIdentifier);
  try {
    if (selected && state.request.configuration.selectionLimit !== 1) await call('deselect', { id: asset.localIdentifier });
    else if (!selected) await call('select', { id: asset.localIdentifier });
  } catch { return; }
  if (picksAtOnce(asset)) {
    await choose();
    return;
  }
  await showPreview(asset, true);
  if (opensPreviewPane(asset)) panes.dataset.pane = 'preview';
}

async function showPreview(asset, load) {
  previewed = asset;
  const media = $('.preview-media');
  const actions = $('.preview-actions');
  if (load) {
    const result = await api.post(`${base}/preview`, { id: asset.localIdentifier }).catch((error) => { say(error.message); return null; });
    $('.size-label').textContent = result?.sizeLabel ?? `${asset.pixelWidth} x ${asset.pixelHeight}`;
    media.replaceChildren(el('img', {
      src: `${base}/assets/${encodeURIComponent(asset.localIdentifier)}/thumbnail?size=1024&mode=fit&v=${asset.version}`,
      alt: `${asset.originalFilename}, ${asset.pixelWidth} by ${asset.pixelHeight}`,
    }));
  }
  const selected = state.selection.includes(asset.localIdentifier);
  const buttons = [];
  if (asset.mediaType === 'video') {
    buttons.push(button('Play', () => {
      media.replaceChildren(el('video', { src: `${base}/assets/${encodeURIComponent(asset.localIdentifier)}/video`, controls: true, autoplay: true, 'aria-label': asset.originalFilename }));
    }));
    if (state.request.allowsEditing && selected) buttons.push(button('Trim', () => trim(asset)));
    // UIImagePickerController's movie preview: Cancel goes back to the grid, Choose picks it.
    if (previewsBeforePicking(asset) && selected) {
      buttons.push(button('Cancel', () => cancelPreview(asset), { ariaLabel: 'Cancel' }),
        button('Choose', () => choose(), { className: 'button primary', ariaLabel: 'Choose' }));
    }
    $('.size-label').textContent = `${asset.pixelWidth} x ${asset.pixelHeight} · ${formatDuration(asset.duration)}`;
  } else if (state.request.allowsEditing && selected) {
    buttons.push(button('Crop', () => crop(asset)));
  }
  const edit = state.edits?.[asset.localIdentifier];
  if (edit?.cropRect) buttons.push(el('span', { class: 'hint' }, `Cropped to ${edit.cropRect.width} × ${edit.cropRect.height}`));
  if (edit?.trimStart != null) buttons.push(el('span', { class: 'hint' }, `Trimmed to ${edit.trimStart.toFixed(1)}–${edit.trimEnd.toFixed(1)} s`));
  actions.replaceChildren(...buttons);
}

// The movie preview's Cancel: the movie is not chosen after all; back to the photos.
async function cancelPreview(asset) {
  try { await call('deselect', { id: asset.localIdentifier }); } catch { return; }
  clearPreview();
  panes.dataset.pane = 'grid';
}

function clearPreview() {
  previewed = null;
  $('.preview-media').replaceChildren();
  $('.preview-actions').replaceChildren();
  $('.size-label').textContent = '';
}

async function crop(asset) {
  const rect = await cropSquare(editor, {
    imageURL: `${base}/assets/${encodeURIComponent(asset.localIdentifier)}/thumbnail?size=1024&mode=fit&v=${asset.version}`,
    pixelWidth: asset.pixelWidth, pixelHeight: asset.pixelHeight, initial: state.edits?.[asset.localIdentifier]?.cropRect,
  });
  if (rect) await call('crop', { id: asset.localIdentifier, rect });
}

async function trim(asset) {
  const edit = state.edits?.[asset.localIdentifier];
  const range = await trimMovie(editor, {
    videoURL: `${base}/assets/${encodeURIComponent(asset.localIdentifier)}/video`, duration: asset.duration,
    maximum: state.request.videoMaximumDuration, initial: edit?.trimStart != null ? { start: edit.trimStart, end: edit.trimEnd } : null,
  });
  if (range) await call('trim', { id: asset.localIdentifier, start: range.start, end: range.end });
}

async function choose() {
  const chooseButton = $('[data-action="choose"]');
  chooseButton.disabled = true;
  say('Preparing…', { progress: true });
  try {
    await call('confirm');
  } catch {
    chooseButton.disabled = false;
  }
}

// MARK: Start

$('[data-action="choose"]').addEventListener('click', choose);
$('[data-action="cancel"]').addEventListener('click', () => call('cancel'));
$('.back-to-albums').addEventListener('click', () => { panes.dataset.pane = 'albums'; });
$('.back-to-grid').addEventListener('click', () => { panes.dataset.pane = 'grid'; });
document.addEventListener('keydown', (event) => {
  if (event.key === 'Escape' && !editor.open && !state?.finished) call('cancel');
});

(async () => {
  try {
    applyState(await api.get(base));
  } catch (error) {
    say(error.message);
    return;
  }
  listen(`${base}/events`, {
    state: (next) => applyState(next),
    delivered: (next) => applyState(next),
    progress: (progress) => { if (!state?.finished) say(`Preparing… ${Math.round(progress.fraction * 100)} %`, { progress: true }); },
    command: ({ command }) => camera?.perform(command),
  });
  if (state.finished) return;
  const isCamera = state.request.sourceType === 'camera';
  watchCameras({ now: !isCamera, track: () => camera?.track ?? null });
  if (isCamera) {
    panes.hidden = true;
    $('.camera').hidden = false;
    // The camera's own controls have their Cancel, beside the shutter: one is enough.
    if (state.request.camera?.showsControls !== false) $('.picker-bar [data-action="cancel"]').hidden = true;
    camera = new Camera($('.camera'), { base, state, call, say, editor });
    await camera.start();
  } else {
    await showAlbums();
    $('.grid').focus();
  }
})();

window.shoebox = { grid, get state() { return state; } };
