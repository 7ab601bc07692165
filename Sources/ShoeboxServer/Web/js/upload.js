// Import by file input or drag and drop, with a progress line per file. Leaving the page while
// files are importing asks first (the browser's own question); a large file whose upload stopped
// (the tab closed) goes on from where it was when it is chosen again (api.js).

import { upload } from './api.js';
import { el, button, formatBytes } from './util.js';

// Files that travel with photos but are not photos (the library's list, ImportProblem): skipped
// with a note rather than uploaded to fail.
const SIDECARS = new Set(['xmp', 'aae', 'json', 'txt', 'thm', 'xml', 'ini', 'db', 'md', 'csv', 'log']);
const extension = (name) => (name.includes('.') ? name.split('.').pop().toLowerCase() : '');

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
      if (SIDECARS.has(extension(file.name))) this.skip(file);
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
