// Back up this phone (#/backup): the person chooses many photos and movies from the phone's
// picker; each is hashed here (SubtleCrypto's SHA-256), the library is asked which it holds
// already (POST /api/assets/known), and only the rest are sent, two at a time, resumably
// (upload.js). What this browser has sent is remembered under the file's name, size and date, so
// choosing the same photos again after the page was closed skips those at once and goes on with
// a half-sent movie from the byte the library has. A browser cannot open a person's files again
// by itself: the page says how far the last backup got and asks for the same choice.

import { api } from './api.js';
import { isSidecar, upload } from './upload.js';
import { el, button, formatBytes, formatDate } from './util.js';

// SubtleCrypto hashes a whole file in memory: bigger ones are sent without asking first (the
// upload is resumable, and the library keeps one copy of bytes it has).
export const HASH_LIMIT = 512 << 20;
// Hashes asked about in one request (the server takes up to 1,000).
const CHECK_BATCH = 200;
const REMEMBERED = 50_000;

const fileKey = (file) => `${file.name}:${file.size}:${file.lastModified}`;

// What this browser backed up for this person: file keys, and how the last run ended.
class BackupMemory {
  constructor(person) {
    this.prefix = `shoebox.backup:${person ?? 'me'}`;
    this.done = new Set(this.read('done') ?? []);
  }

  read(name) {
    try { return JSON.parse(localStorage.getItem(`${this.prefix}:${name}`) ?? 'null'); } catch { return null; }
  }

  write(name, value) {
    try { localStorage.setItem(`${this.prefix}:${name}`, JSON.stringify(value)); } catch { /* full or private mode: nothing remembered */ }
  }

  has(file) { return this.done.has(fileKey(file)); }

  remember(file) {
    this.done.add(fileKey(file));
    // The oldest go first when there are too many to keep.
    const list = [...this.done].slice(-REMEMBERED);
    this.done = new Set(list);
    this.write('done', list);
  }

  get lastRun() { return this.read('last'); }
  set lastRun(value) { this.write('last', value); }
}

export async function sha256(file) {
  const digest = await crypto.subtle.digest('SHA-256', await file.arrayBuffer());
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

export class PhoneBackup {
  constructor(panel) {
    this.panel = panel;
    this.running = false;
    this.stopped = false;
  }

  show(me) {
    this.memory = new BackupMemory(me?.person?.identifier ?? me?.person?.name);
    if (this.running) return;
    this.panel.replaceChildren();
    const canHash = Boolean(globalThis.crypto?.subtle);
    const input = el('input', {
      type: 'file', multiple: true, id: 'backup-input', class: 'visually-hidden',
      accept: 'image/*,video/*,.heic,.heif,.dng,.mov,.mp4,.m4v,.3gp',
    });
    input.addEventListener('change', () => { const files = [...input.files]; input.value = ''; this.run(files); });
    const last = this.memory.lastRun;
    this.panel.append(
      el('p', { class: 'hint' }, 'Choose the photos and movies to keep here: select them all in your phone’s picker. Those the library has already are left on the phone and not sent again; the rest go up one by one, and a movie cut off by a lost connection goes on where it stopped.'),
      canHash ? '' : el('p', { class: 'hint backup-insecure' }, 'This page is not on a secure address (https), so the browser cannot check files before sending them: every file is sent, and the library keeps one copy of each.'),
      last ? el('p', { class: 'backup-last' }, this.lastText(last)) : '',
      el('label', { class: 'button primary', for: 'backup-input' }, last && last.sent + last.skipped < last.total ? 'Choose the Same Photos to Go On' : 'Choose Photos and Movies'),
      input,
      el('div', { class: 'backup-status', role: 'status', 'aria-live': 'polite' }),
      el('ul', { class: 'backup-problems', role: 'list' }),
    );
  }

  lastText(last) {
    const when = formatDate(last.date);
    const left = last.total - last.sent - last.skipped - last.failed;
    const parts = [`${last.sent} sent`, `${last.skipped} there already`];
    if (last.failed) parts.push(`${last.failed} failed`);
    return left > 0
      ? `The last backup (${when}) stopped with ${left} of ${last.total} still to send (${parts.join(', ')}). Choose the same photos to go on.`
      : `Last backup: ${when}, ${last.total} files (${parts.join(', ')}).`;
  }

  async run(chosen) {
    if (this.running) return;
    this.running = true;
    this.stopped = false;
    const status = this.panel.querySelector('.backup-status');
    const problems = this.panel.querySelector('.backup-problems');
    problems.replaceChildren();
    const media = chosen.filter((file) => !isSidecar(file));
    const run = { date: new Date().toISOString(), total: media.length, sent: 0, skipped: 0, failed: 0, sidecars: chosen.length - media.length };
    const bar = el('progress', { max: '1', value: '0', 'aria-label': 'Backup progress' });
    const line = el('p', { class: 'backup-line' });
    const stop = button('Stop', () => { this.stopped = true; stop.disabled = true; line.textContent = 'Stopping after the files on their way…'; });
    status.replaceChildren(line, bar, stop);
    const totalBytes = media.reduce((sum, file) => sum + file.size, 0);
    let bytesDone = 0;
    const progress = (extra = 0) => {
      bar.value = totalBytes ? Math.min(1, (bytesDone + extra) / totalBytes) : 1;
    };
    const say = (phase) => {
      line.textContent = `${phase} · ${run.sent} sent, ${run.skipped} there already${run.failed ? `, ${run.failed} failed` : ''} of ${run.total}`;
    };
    const problem = (file, message) => {
      run.failed += 1;
      problems.append(el('li', { class: 'upload failed', role: 'alert' }, `${file.name}: ${message.replace(/^cannot import .*?: /, '')}`));
    };
    try {
      // 1. What this browser sent before is done; the rest is hashed and asked about.
      const pending = [];
      for (const file of media) {
        if (this.memory.has(file)) { run.skipped += 1; bytesDone += file.size; } else pending.push(file);
      }
      progress();
      const toSend = [];
      const hashed = [];
      const canHash = Boolean(globalThis.crypto?.subtle);
      let checked = 0;
      const ask = async () => {
        const batch = hashed.splice(0);
        if (!batch.length) return;
        const known = await api.post('/api/assets/known', { sha256: batch.map(([, hash]) => hash) });
        const there = new Set([...known.present, ...known.deleted]);
        for (const [file, hash] of batch) {
          if (there.has(hash)) {
            run.skipped += 1;
            bytesDone += file.size;
            this.memory.remember(file);
          } else {
            toSend.push(file);
          }
        }
        progress();
      };
      for (const file of pending) {
        if (this.stopped) break;
        checked += 1;
        say(`Checking ${checked} of ${pending.length}`);
        if (!canHash || file.size > HASH_LIMIT) { toSend.push(file); continue; }
        try {
          hashed.push([file, await sha256(file)]);
        } catch {
          toSend.push(file);  // unreadable here: the upload says why
        }
        if (hashed.length >= CHECK_BATCH) await ask();
      }
      await ask();
      this.memory.lastRun = run;
      // 2. The rest go up, two at a time.
      const inFlight = new Map();
      const sendNext = async () => {
        for (;;) {
          const file = toSend.shift();
          if (!file || this.stopped) return;
          inFlight.set(file, 0);
          say(`Sending ${file.name}`);
          try {
            const result = await upload(file, {
              onProgress: (fraction) => {
                inFlight.set(file, fraction * file.size);
                progress([...inFlight.values()].reduce((a, b) => a + b, 0));
              },
            });
            if (result?.isDuplicate) run.skipped += 1; else run.sent += 1;
            this.memory.remember(file);
          } catch (error) {
            if (error.status === 0) { this.stopped = true; problem(file, 'the server could not be reached; choose the same photos again to go on'); return; }
            problem(file, error.message);
          } finally {
            inFlight.delete(file);
            bytesDone += file.size;
            progress();
            this.memory.lastRun = run;
          }
        }
      };
      await Promise.all([sendNext(), sendNext()]);
      const left = run.total - run.sent - run.skipped - run.failed;
      line.textContent = left > 0
        ? `Stopped: ${run.sent} sent, ${run.skipped} there already, ${left} still to send. Choose the same photos to go on.`
        : `Done: ${run.sent} sent, ${run.skipped} there already${run.failed ? `, ${run.failed} failed` : ''}${run.sidecars ? ` (${run.sidecars} sidecar or text files left out)` : ''}.`;
      line.classList.add('backup-finished');
    } catch (error) {
      line.textContent = `The backup stopped: ${error.message}. Choose the same photos to go on.`;
    } finally {
      this.memory.lastRun = run;
      stop.remove();
      this.running = false;
    }
  }
}
