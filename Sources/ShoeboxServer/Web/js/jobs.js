// Background work: the top bar's indicator (thumbnails and other jobs still to do, jobs that
// failed) and Settings › Background Work, where failed jobs show their errors and can be retried
// or removed.

import { api } from './api.js';
import { el, button, formatDate } from './util.js';

const kindNames = {
  derivatives: 'Thumbnails and previews', poster: 'Poster frames', rendition: 'Playback versions of movies',
  metadata: 'Reading dates and places again', purgeExpired: 'Emptying Recently Deleted', sweep: 'Storage cleanup',
  searchIndex: 'Indexing for search', places: 'Naming places by the new place table', noop: 'No-op',
};
const stateNames = { queued: 'waiting', running: 'in progress', failed: 'failed' };

function describe(job) {
  const name = kindNames[job.kind] ?? job.kind;
  return job.subject ? `${name} · ${job.subject}` : name;
}

// The indicator follows the jobs with a long poll: the server answers `?wait=25&since=TAG` as
// soon as the jobs differ from what the page last showed (or after 25 s), so a thumbnail made or
// a job failed shows at once, without asking every few seconds. `refresh()` reads now (after
// Retry or Remove).
export class JobIndicator {
  constructor(link) {
    this.link = link;
    this.onChange = null;
    this.tag = null;
    this.watching = false;
  }

  async refresh() {
    let listing = null;
    try {
      listing = await api.get('/api/jobs');
      this.show(listing);
    } catch {
      // The server is away: the watch below tries again.
    }
    this.watch();
    return listing;
  }

  show(listing) {
    this.tag = listing.tag;
    const failed = listing.counts.filter((count) => count.state === 'failed').reduce((sum, count) => sum + count.count, 0);
    const parts = [];
    if (listing.open) parts.push(`Processing ${listing.open}`);
    if (failed) parts.push(`${failed} failed`);
    this.link.hidden = parts.length === 0;
    this.link.textContent = parts.join(' · ');
    this.link.classList.toggle('has-failures', failed > 0);
    this.link.setAttribute('aria-label', `Background work: ${parts.join(', ') || 'nothing to do'}`);
    this.onChange?.(listing);
  }

  // One watch per page, for as long as the page is open.
  async watch() {
    if (this.watching) return;
    this.watching = true;
    for (;;) {
      try {
        const listing = await api.get(`/api/jobs?wait=25&since=${encodeURIComponent(this.tag ?? '')}`);
        if (listing.tag !== this.tag) this.show(listing);
      } catch {
        await new Promise((resolve) => { setTimeout(resolve, 30_000); });  // the server is away: look again later
      }
    }
  }
}

// `listing`: what the indicator just read (the page is redrawn only when it changed, so that
// the focus stays where it is).
export async function showJobs(container, indicator, listing) {
  if (!listing) {
    if (!container.childElementCount) container.replaceChildren(el('p', {}, 'Loading…'));
    try {
      listing = await api.get('/api/jobs');
    } catch (error) {
      container.replaceChildren(el('p', { class: 'status' }, error.message));
      return;
    }
  }
  const key = JSON.stringify([listing.counts, listing.failed.map((job) => [job.id, job.attempts]), listing.running.map((job) => job.id)]);
  if (container.dataset.shown === key) return;
  container.dataset.shown = key;
  const rerender = async () => { await indicator?.refresh(); await showJobs(container, indicator); };
  const kinds = [...new Set(listing.counts.map((count) => count.kind))];
  const summary = kinds.length
    ? el('table', { class: 'job-counts' },
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, 'Work'), ...['queued', 'running', 'failed'].map((state) => el('th', { scope: 'col' }, stateNames[state])))),
      el('tbody', {}, kinds.map((kind) => el('tr', {}, el('th', { scope: 'row' }, kindNames[kind] ?? kind),
        ...['queued', 'running', 'failed'].map((state) => el('td', {}, String(listing.counts.find((count) => count.kind === kind && count.state === state)?.count ?? 0)))))))
    : el('p', { class: 'hint' }, 'Nothing to do.');
  const failed = listing.failed.length
    ? [
      el('div', { class: 'job-actions' },
        el('h3', {}, `Failed (${listing.failed.length})`),
        button('Retry All', async () => { await api.post('/api/jobs/retry', {}); await rerender(); }, { className: 'button primary' })),
      el('ul', { class: 'job-list', role: 'list' }, listing.failed.map((job) => el('li', { class: 'job failed' },
        el('div', { class: 'job-title' }, describe(job)),
        el('p', { class: 'job-error' }, job.lastError ?? 'no error recorded'),
        el('p', { class: 'hint' }, `${job.attempts} of ${job.maxAttempts} attempts · queued ${formatDate(job.createdDate)}`),
        el('div', { class: 'job-buttons' },
          button('Retry', async () => { await api.post('/api/jobs/retry', { ids: [job.id] }); await rerender(); }, { ariaLabel: `Retry ${describe(job)}` }),
          button('Remove', async () => { await api.post('/api/jobs/cancel', { ids: [job.id] }); await rerender(); },
            { className: 'button danger', ariaLabel: `Remove ${describe(job)}` }))))),
    ]
    : [];
  const running = listing.running.length
    ? [el('h3', {}, 'In progress'), el('ul', { class: 'job-list', role: 'list' }, listing.running.map((job) => el('li', { class: 'job' },
      el('div', { class: 'job-title' }, describe(job)), el('p', { class: 'hint' }, `attempt ${job.attempts} · ${job.leaseOwner ?? ''}`))))]
    : [];
  container.replaceChildren(summary, ...running, ...failed);
}
