// Import by file input or drag and drop, with a progress line per file. Leaving the page while
// files are importing asks first (the browser's own question); a large file whose upload stopped
// (the tab closed) goes on from where it was when it is chosen again (upload, below).

import { api, request } from './api.js';
import { el, button, formatBytes } from './util.js';

// Files that travel with photos but are not photos (the library's list, ImportProblem): skipped
// with a note rather than uploaded to fail.
const SIDECARS = new Set(['xmp', 'aae', 'json', 'txt', 'thm', 'xml', 'ini', 'db', 'md', 'csv', 'log']);
const extension = (name) => (name.includes('.') ? name.split('.').pop().toLowerCase() : '');
export const isSidecar = (file) => SIDECARS.has(extension(file.name));

export class Importer {
  constructor(panel, { album } = {}) {
    this.panel = panel;
    this.album = album;
    this.queue = [];
    this.running = 0;
    window.addEventListener('beforeunload', (event) => {
      if (!this.running && !this.queue.length) return;
      event.preventDefault();
      event.returnValue = '';  // older browsers ask only when this is set
    });
  }

  add(files) {
    this.panel.hidden = false;
    for (const file of files) {
      if (isSidecar(file)) this.skip(file);
      else this.queue.push(file);
    }
    while (this.running < 2 && this.queue.length) this.runNext();
  }

  // A row that stays until dismissed (failures), or for a while (notes).
  row(note, { failed = false, linger = 0 } = {}) {
    const row = el('div', { class: failed ? 'upload failed' : 'upload' }, note);
    row.append(button('×', () => this.dismiss(row), { className: 'dismiss', ariaLabel: `Dismiss ${note.textContent}` }));
    this.panel.append(row);
    if (linger) setTimeout(() => this.dismiss(row), linger);
    return row;
  }

  dismiss(row) {
    row.remove();
    if (!this.panel.querySelector('.upload')) this.panel.hidden = true;
  }

  skip(file) {
    this.row(el('span', { class: 'note' }, `${file.name}: skipped, a sidecar or text file (.${extension(file.name)}), not a photo or movie`),
             { linger: 8000 });
  }

  async runNext() {
    const file = this.queue.shift();
    if (!file) return;
    this.running += 1;
    const bar = el('progress', { max: '1', value: '0', 'aria-label': `Importing ${file.name}` });
    const note = el('span', {}, `${file.name} · ${formatBytes(file.size)}`);
    const row = this.row(note);
    row.insertBefore(bar, row.lastChild);
    const album = this.album?.();
    try {
      const result = await upload(file, {
        album,
        onProgress: (fraction) => { bar.value = fraction; },
        onResume: (offset) => {
          bar.value = offset / file.size;
          note.textContent = `${file.name} · going on from ${formatBytes(offset)} of ${formatBytes(file.size)}`;
        },
      });
      bar.value = 1;
      note.textContent = `${file.name}: ${result?.isRestored ? 'restored from Recently Deleted' : result?.isDuplicate ? 'already in the library' : 'imported'}`;
      setTimeout(() => this.dismiss(row), 4000);
    } catch (error) {
      row.classList.add('failed');
      row.setAttribute('role', 'alert');
      // The server's message names the file already ("cannot import NAME: why"); say it once.
      note.textContent = `${file.name}: ${error.message.replace(/^cannot import .*?: /, '')}`;
      row.lastChild.setAttribute('aria-label', `Dismiss ${note.textContent}`);
      bar.remove();
    } finally {
      this.running -= 1;
      if (this.queue.length) this.runNext();
      else if (this.running === 0) setTimeout(() => { if (!this.panel.querySelector('.upload')) this.panel.hidden = true; }, 4200);
    }
  }

  // Drops anywhere on the page import.
  watchDrops(target, overlay) {
    let depth = 0;
    const hasFiles = (event) => [...(event.dataTransfer?.types ?? [])].includes('Files');
    target.addEventListener('dragenter', (event) => { if (hasFiles(event)) { depth += 1; overlay.hidden = false; } });
    target.addEventListener('dragleave', () => { depth = Math.max(0, depth - 1); if (depth === 0) overlay.hidden = true; });
    target.addEventListener('dragover', (event) => { if (hasFiles(event)) event.preventDefault(); });
    target.addEventListener('drop', (event) => {
      if (!hasFiles(event)) return;
      event.preventDefault();
      depth = 0;
      overlay.hidden = true;
      this.add(event.dataTransfer.files);
    });
  }
}

// A file or a piece of one, as the upload routes take it (its bytes, not JSON), with progress.
function send(method, path, body, onProgress) {
  return request(method, path, { body, onProgress, refused: 'upload failed' });
}

// Files larger than this go in pieces of PIECE bytes, each of which any server takes.
export const PIECE = 8 << 20;

// A resumable upload is remembered in this browser under the file's name, size and date, so the
// same file chosen again (after the tab was closed or reloaded) goes on where it stopped.
const uploadKey = (file) => `shoebox.upload:${file.name}:${file.size}:${file.lastModified}`;

function rememberedUpload(file, album) {
  try {
    const saved = JSON.parse(localStorage.getItem(uploadKey(file)) ?? 'null');
    return saved?.id && (saved.album ?? null) === (album ?? null) ? saved.id : null;
  } catch {
    return null;
  }
}

// Uploads a file and imports it; `onProgress` hears 0…1, `onResume(offset)` that a file sent in
// part before goes on from byte `offset`. A large file goes as a resumable upload (/api/uploads):
// a dropped connection or a server that went away costs at most the piece in flight, and the
// upload goes on from the byte the library has — also when the same file is chosen again after
// the page was closed.
export async function upload(file, { album, onProgress, onResume } = {}) {
  if (file.size <= 2 * PIECE) {
    const path = `/api/assets?filename=${encodeURIComponent(file.name)}${album ? `&album=${encodeURIComponent(album)}` : ''}`;
    return send('POST', path, file, onProgress);
  }
  const key = uploadKey(file);
  let begun = null;
  const remembered = rememberedUpload(file, album);
  if (remembered) {
    // Still receiving on the server (uploads nobody adds to for a day are removed): go on.
    const state = await api.get(`/api/uploads/${encodeURIComponent(remembered)}`).catch((error) => {
      if (error.status === 0) throw error;
      return null;
    });
    if (state?.state === 'receiving' && state.size === file.size) {
      begun = state;
      if (state.offset > 0) onResume?.(state.offset);
    }
  }
  if (!begun) {
    begun = await api.post('/api/uploads', { filename: file.name, size: file.size, ...(album ? { album } : {}) });
    try { localStorage.setItem(key, JSON.stringify({ id: begun.id, album: album ?? null })); } catch { /* private mode: no resuming */ }
  }
  const path = `/api/uploads/${encodeURIComponent(begun.id)}`;
  let offset = begun.offset;
  let failures = 0;
  for (;;) {
    const end = Math.min(offset + PIECE, file.size);
    const start = offset;
    try {
      const result = await send('PUT', `${path}?offset=${start}`, file.slice(start, end),
                                (fraction) => onProgress?.((start + fraction * (end - start)) / file.size));
      if (result && 'isDuplicate' in result) {  // the last piece: imported
        localStorage.removeItem(key);
        return result;
      }
      offset = result.offset;
      failures = 0;
    } catch (error) {
      const retryable = error.status === 0 || error.status === 409 || error.status >= 502;
      if (!retryable || failures >= 6) {
        // Refused (not a photo, too large…): nothing to go on with. Unreachable: kept for later.
        if (error.status !== 0) localStorage.removeItem(key);
        throw error;
      }
      failures += 1;
      // Wait (1, 2, 4 … s), then ask where the upload stands and go on from there.
      await new Promise((resolve) => { setTimeout(resolve, 500 * 2 ** failures); });
      const state = await api.get(path).catch(() => null);
      if (state) offset = state.offset;
    }
  }
}
