// Import by file input or drag and drop, with a progress line per file.

import { upload } from './api.js';
import { el, formatBytes } from './util.js';

export class Importer {
  constructor(panel, { album } = {}) {
    this.panel = panel;
    this.album = album;
    this.queue = [];
    this.running = 0;
  }

  add(files) {
    for (const file of files) this.queue.push(file);
    this.panel.hidden = false;
    while (this.running < 2 && this.queue.length) this.runNext();
  }

  async runNext() {
    const file = this.queue.shift();
    if (!file) return;
    this.running += 1;
    const bar = el('progress', { max: '1', value: '0', 'aria-label': `Importing ${file.name}` });
    const note = el('span', {}, `${file.name} · ${formatBytes(file.size)}`);
    const row = el('div', { class: 'upload' }, note, bar);
    this.panel.append(row);
    const album = this.album?.();
    try {
      const result = await upload(file, { album, onProgress: (fraction) => { bar.value = fraction; } });
      bar.value = 1;
      note.textContent = `${file.name}: ${result?.isRestored ? 'restored from Recently Deleted' : result?.isDuplicate ? 'already in the library' : 'imported'}`;
      setTimeout(() => row.remove(), 4000);
    } catch (error) {
      row.classList.add('failed');
      note.textContent = `${file.name}: ${error.message}`;
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
