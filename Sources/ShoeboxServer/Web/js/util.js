// Small DOM helpers shared by the pages.

export const $ = (selector) => document.querySelector(selector);

// el('button', { class: 'button', onclick }, 'Text') — attributes, then children.
export function el(tag, attributes = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attributes)) {
    if (value === undefined || value === null || value === false) continue;
    if (key.startsWith('on') && typeof value === 'function') node.addEventListener(key.slice(2), value);
    else if (key === 'class') node.className = value;
    else if (key === 'dataset') Object.assign(node.dataset, value);
    else if (value === true) node.setAttribute(key, '');
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

export function button(label, onclick, { className = 'button', ariaLabel, disabled } = {}) {
  return el('button', { type: 'button', class: className, 'aria-label': ariaLabel, disabled, onclick }, label);
}

const monthFormat = new Intl.DateTimeFormat(undefined, { month: 'long', year: 'numeric', timeZone: 'UTC' });
const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

// "2021-06" → "June 2021"
export function monthTitle(month) {
  const [year, number] = month.split('-').map(Number);
  return monthFormat.format(new Date(Date.UTC(year, number - 1, 1)));
}

export function formatDate(iso) {
  return iso ? dateFormat.format(new Date(iso)) : '';
}

const wallClockFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short', timeZone: 'UTC' });

// When an asset was taken, as the clock read where it was taken (localCreationDate, which has
// no zone), whatever this browser's zone; with `withZone`, its UTC offset and zone name too.
export function formatTaken(asset, { withZone = false } = {}) {
  const match = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2}):(\d{2})/.exec(asset.localCreationDate ?? '');
  if (!match) return formatDate(asset.creationDate);
  const [year, month, day, hour, minute, second] = match.slice(1).map(Number);
  let text = wallClockFormat.format(new Date(Date.UTC(year, month - 1, day, hour, minute, second)));
  if (withZone && asset.timeZoneOffset != null) {
    const offset = Math.abs(asset.timeZoneOffset);
    const sign = asset.timeZoneOffset < 0 ? '−' : '+';
    text += ` (UTC${sign}${String(Math.floor(offset / 3600)).padStart(2, '0')}:${String(Math.floor(offset % 3600 / 60)).padStart(2, '0')}`
      + (asset.timeZone ? `, ${asset.timeZone.replaceAll('_', ' ')})` : ')');
  }
  return text;
}

export function formatDuration(seconds) {
  const total = Math.round(seconds);
  const minutes = Math.floor(total / 60);
  return `${minutes}:${String(total % 60).padStart(2, '0')}`;
}

export function formatBytes(bytes) {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024, unit = 0;
  while (value >= 1024 && unit < units.length - 1) { value /= 1024; unit += 1; }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}

export function thumbnailURL(base, asset, size = 256, mode = 'fill') {
  return `${base}/${encodeURIComponent(asset.localIdentifier)}/thumbnail?size=${size}&mode=${mode}&v=${asset.version}`;
}
