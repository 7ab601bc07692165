// Fixing what the camera got wrong, for one photo (the viewer's Info) or a selection (the
// toolbar's Adjust menu): the date and time — set, shifted, or read in the zone the camera's clock
// was in, previewed before it applies — the place (searched in the offline place table, or clicked
// on the map), the title, caption, keywords and rating. Everything goes through
// POST /api/assets/metadata and PATCH /api/assets/ID; what the person sets wins over the file and
// can be reverted to the camera's.

import { api } from './api.js';
import { el, button, formatTaken } from './util.js';
import { worldSVG, svgElement, setView } from './worldmap.js';
import { showToast } from './toast.js';

// The zones this browser knows, offered in the time zone fields.
const ZONES = typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
const PREVIEW_ROWS = 5;

function plural(count, word) { return `${count.toLocaleString()} ${word}${count === 1 ? '' : 's'}`; }

// A dialog with `title`, `fields` and Apply/Cancel; `submit()` does the work and resolves with
// true to close (false keeps it open, its message shown). Resolves with whether it applied.
function formDialog(title, fields, { submit, confirm = 'Apply', extraButtons = [] }) {
  return new Promise((resolve) => {
    const message = el('p', { class: 'form-error', role: 'alert', hidden: true });
    const apply = el('button', { type: 'submit', value: 'confirm', class: 'button primary' }, confirm);
    const form = el('form', { method: 'dialog', class: 'ask-form describe-form' },
      el('h2', { id: 'describe-title' }, title), ...fields, message,
      el('div', { class: 'dialog-buttons row' }, apply, ...extraButtons,
        el('button', { type: 'submit', value: 'cancel', class: 'button', formnovalidate: true }, 'Cancel')));
    const dialog = el('dialog', { class: 'ask-dialog describe-dialog', 'aria-labelledby': 'describe-title' }, form);
    let applied = false;
    const say = (text) => { message.textContent = text ?? ''; message.hidden = !text; };
    form.addEventListener('submit', async (event) => {
      if (event.submitter?.value !== 'confirm' && event.submitter?.value !== 'extra') return;
      event.preventDefault();
      apply.disabled = true;
      say(null);
      try {
        if (await submit(event.submitter?.value === 'extra' ? event.submitter.dataset.choice : 'confirm', say)) {
          applied = true;
          dialog.close();
        }
      } catch (error) {
        say(error.status === 0 ? 'Shoebox cannot be reached: nothing was changed.' : error.message);
      } finally {
        apply.disabled = false;
      }
    });
    dialog.addEventListener('close', () => { dialog.remove(); resolve(applied); });
    document.body.append(dialog);
    dialog.showModal();
    (form.querySelector('input:not([type=radio]), select') ?? apply).focus();
  });
}

function zoneList(id) {
  return el('datalist', { id }, ...ZONES.map((zone) => el('option', { value: zone })));
}

// Seconds east of UTC as people read them: UTC+02:00.
function offsetText(offset) {
  if (offset == null) return '';
  const sign = offset < 0 ? '−' : '+';
  const magnitude = Math.abs(offset);
  return ` UTC${sign}${String(Math.floor(magnitude / 3600)).padStart(2, '0')}:${String(Math.floor(magnitude % 3600 / 60)).padStart(2, '0')}`;
}

function previewTime(time) {
  return formatTaken({ localCreationDate: time.localDate, creationDate: time.creationDate }) + offsetText(time.timeZoneOffset);
}

// Adjust Date and Time for `selection` ({assets} or {fetch, except}) of `count` items; `earliest`:
// the local time of the earliest of them, when known (the field starts there).
export async function adjustDate(selection, { count, earliest = null } = {}) {
  const mode = (value, label, checked = false) => el('label', { class: 'choice' },
    el('input', { type: 'radio', name: 'mode', value, checked }), ' ', label);
  const when = el('input', { type: 'datetime-local', name: 'when', step: '1', value: earliest?.slice(0, 19) ?? '' });
  const setZone = el('input', { name: 'setZone', list: 'describe-zones', placeholder: 'its own zone', autocomplete: 'off' });
  const direction = el('select', { name: 'direction', 'aria-label': 'Earlier or later' },
    el('option', { value: '1' }, 'Later'), el('option', { value: '-1' }, 'Earlier'));
  const amount = (name, label, max) => el('label', { class: 'amount' },
    el('input', { type: 'number', name, min: '0', max, step: '1', value: '0', inputmode: 'numeric' }), ' ', label);
  const zone = el('input', { name: 'zone', list: 'describe-zones', placeholder: 'Asia/Tokyo', autocomplete: 'off' });
  const preview = el('div', { class: 'date-preview', 'aria-live': 'polite' });
  const form = () => preview.closest('form');
  const body = () => {
    const data = new FormData(form());
    switch (data.get('mode')) {
      case 'shift': {
        const seconds = Number(data.get('days')) * 86_400 + Number(data.get('hours')) * 3_600 + Number(data.get('minutes')) * 60;
        if (!seconds) return { problem: 'Choose how far to move them.' };
        return { date: { shift: seconds * Number(data.get('direction')) } };
      }
      case 'zone':
        return data.get('zone') ? { date: { timeZone: data.get('zone').trim() } } : { problem: 'Choose the zone the camera’s clock was set to.' };
      default: {
        if (!data.get('when')) return { problem: 'Choose a date and time.' };
        const zoneName = data.get('setZone')?.trim();
        return { date: { set: data.get('when'), ...(zoneName ? { timeZone: zoneName } : {}) } };
      }
    }
  };
  // The preview follows the form, the latest answer only.
  let asked = 0;
  let timer = 0;
  const refresh = () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const wanted = body();
      const ask = ++asked;
      if (wanted.problem) { preview.replaceChildren(el('p', { class: 'hint' }, wanted.problem)); return; }
      try {
        const answer = await api.post('/api/assets/metadata', { ...selection, wholeBursts: true, ...wanted, preview: true });
        if (ask !== asked) return;
        const rows = answer.preview.slice(0, PREVIEW_ROWS).map((row) => el('tr', {},
          el('td', {}, row.originalFilename), el('td', {}, previewTime(row.before)), el('td', { 'aria-hidden': 'true' }, '→'),
          el('td', { class: 'after' }, previewTime(row.after))));
        preview.replaceChildren(...[
          el('table', { class: 'preview-table', 'aria-label': 'Preview' },
            el('thead', {}, el('tr', {}, el('th', {}, 'Item'), el('th', {}, 'Now'), el('th', {}), el('th', {}, 'After'))), el('tbody', {}, rows)),
          answer.count > PREVIEW_ROWS ? el('p', { class: 'hint' }, `and ${plural(answer.count - PREVIEW_ROWS, 'more item')}, moved alike`) : null,
        ].filter(Boolean));
      } catch (error) {
        if (ask === asked) preview.replaceChildren(el('p', { class: 'form-error' }, error.message));
      }
    }, 200);
  };
  const modes = el('fieldset', { class: 'date-modes' }, el('legend', { class: 'visually-hidden' }, 'How'),
    mode('set', 'Set the date and time', true), el('div', { class: 'mode-fields' }, when, el('label', {}, 'Time zone ', setZone)),
    mode('shift', 'Move by'), el('div', { class: 'mode-fields row' }, direction, amount('days', 'days', '36500'), amount('hours', 'h', '23'), amount('minutes', 'min', '59')),
    mode('zone', 'The camera’s clock was set to another zone'), el('div', { class: 'mode-fields' }, el('label', {}, 'Time zone ', zone)));
  // Every change of the form shows the preview again; typing in a mode's field chooses it.
  modes.addEventListener('input', (event) => {
    const fieldMode = event.target.closest('.mode-fields')?.previousElementSibling?.querySelector('input[type=radio]');
    if (fieldMode) fieldMode.checked = true;
    refresh();
  });
  modes.addEventListener('change', refresh);
  const fields = [
    el('p', { class: 'usage' }, count === 1 ? 'When this was taken, as the clock read where it was taken.'
      : `The earliest of ${plural(count, 'item')} is set to the time you choose, and the others move by as much.`),
    modes,
    zoneList('describe-zones'),
    preview,
  ];
  refresh();
  const applied = await formDialog(count === 1 ? 'Adjust Date and Time' : `Adjust Date and Time of ${plural(count, 'item')}`, fields, {
    submit: async (_, say) => {
      const wanted = body();
      if (wanted.problem) { say(wanted.problem); return false; }
      const answer = await api.post('/api/assets/metadata', { ...selection, wholeBursts: true, ...wanted });
      showToast(`${plural(answer.done, 'item')} ${answer.done === 1 ? 'has' : 'have'} a new date.`);
      return true;
    },
  });
  clearTimeout(timer);
  return applied;
}

// Adjust Location: a place of the offline table by name, or a point clicked on the map.
export async function adjustLocation(selection, { count, current = null } = {}) {
  let chosen = current ? { latitude: current.latitude, longitude: current.longitude, label: current.label } : null;
  const search = el('input', { type: 'search', name: 'place', placeholder: 'Rome, Paris US, Kyoto…', autocomplete: 'off', 'aria-label': 'Search places' });
  const results = el('ul', { class: 'place-results', role: 'list' });
  const where = el('p', { class: 'chosen-place', 'aria-live': 'polite' });
  const frame = el('div', { class: 'pick-map-frame' });
  const svg = await worldSVG({ x: -180, y: -90, width: 360, height: 180 }, { label: 'Map: click where it was taken' });
  svg.classList.add('pick-map');
  frame.append(svg);
  let view = { x: -180, y: -90, width: 360, height: 180 };
  const pin = svgElement('circle', { class: 'map-pin', r: 1, 'vector-effect': 'non-scaling-stroke' });
  const show = ({ zoom = false, span = null } = {}) => {
    where.textContent = chosen ? `${chosen.label ? `${chosen.label} · ` : ''}${chosen.latitude.toFixed(5)}, ${chosen.longitude.toFixed(5)}` : 'No place chosen yet.';
    if (!chosen) { pin.remove(); return; }
    if (zoom || span) {
      const width = span ?? Math.max(0.5, view.width / 4);
      view = { x: chosen.longitude - width / 2, y: -chosen.latitude - width / 4, width, height: width / 2 };
      setView(svg, view);
    }
    pin.setAttribute('cx', chosen.longitude);
    pin.setAttribute('cy', -chosen.latitude);
    pin.setAttribute('r', view.width / 120);
    svg.append(pin);
  };
  svg.addEventListener('click', (event) => {
    const point = svg.createSVGPoint();
    point.x = event.clientX;
    point.y = event.clientY;
    const spot = point.matrixTransform(svg.getScreenCTM().inverse());
    const latitude = Math.max(-90, Math.min(90, -spot.y));
    const longitude = ((spot.x + 540) % 360) - 180;
    chosen = { latitude: Math.round(latitude * 1e5) / 1e5, longitude: Math.round(longitude * 1e5) / 1e5 };
    show({ zoom: view.width > 2 });
  });
  const zoomOut = button('Whole World', () => { view = { x: -180, y: -90, width: 360, height: 180 }; setView(svg, view); show(); }, { className: 'link-button' });
  let asked = 0;
  let timer = 0;
  search.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(async () => {
      const text = search.value.trim();
      const ask = ++asked;
      if (!text) { results.replaceChildren(); return; }
      try {
        const answer = await api.get(`/api/places/search?q=${encodeURIComponent(text)}&limit=8`);
        if (ask !== asked) return;
        if (!answer.placesInstalled) { results.replaceChildren(el('li', { class: 'hint' }, 'The offline place table is not installed (scripts/places install): click on the map instead.')); return; }
        results.replaceChildren(...(answer.places.length ? answer.places.map((place) => {
          const label = [place.name, place.region === place.name ? null : place.region, place.country].filter(Boolean).join(', ');
          return el('li', {}, button(label, () => {
            chosen = { latitude: place.latitude, longitude: place.longitude, label };
            show({ span: 6 });
            results.replaceChildren();
          }, { className: 'place-result' }));
        }) : [el('li', { class: 'hint' }, `No place starts with “${text}”.`)]));
      } catch (error) {
        if (ask === asked) results.replaceChildren(el('li', { class: 'form-error' }, error.message));
      }
    }, 200);
  });
  show({ span: chosen ? 6 : null });
  const remove = el('button', { type: 'submit', value: 'extra', class: 'button danger', dataset: { choice: 'remove' }, formnovalidate: true }, 'Remove Location');
  return formDialog(count === 1 ? 'Adjust Location' : `Adjust Location of ${plural(count, 'item')}`,
    [el('label', {}, 'Find a place ', search), results, frame, el('div', { class: 'row map-row' }, where, zoomOut)], {
      extraButtons: [remove],
      submit: async (choice, say) => {
        if (choice !== 'remove' && !chosen) { say('Find a place or click on the map first.'); return false; }
        const location = choice === 'remove' ? null : { latitude: chosen.latitude, longitude: chosen.longitude };
        const answer = await api.post('/api/assets/metadata', { ...selection, wholeBursts: true, location });
        showToast(choice === 'remove' ? `The location of ${plural(answer.done, 'item')} is removed.` : `${plural(answer.done, 'item')} placed at ${chosen.label ?? where.textContent}.`);
        return true;
      },
    });
}

// Keywords for a selection: added, or taken away.
export async function adjustKeywords(selection, { count }) {
  const known = await api.get('/api/keywords').then((answer) => answer.keywords).catch(() => []);
  const words = el('input', { name: 'words', list: 'describe-keywords', placeholder: 'Family, Places/Italy/Rome', autocomplete: 'off', required: true });
  const fields = [
    el('p', { class: 'usage' }, 'Separate keywords with commas; write a hierarchy as a path (Places/Italy/Rome).'),
    el('label', {}, 'Keywords ', words),
    el('datalist', { id: 'describe-keywords' }, ...known.map((keyword) => el('option', { value: keyword.keyword }))),
    el('fieldset', { class: 'date-modes' }, el('legend', { class: 'visually-hidden' }, 'Add or remove'),
      el('label', { class: 'choice' }, el('input', { type: 'radio', name: 'how', value: 'add', checked: true }), ' Add them'),
      el('label', { class: 'choice' }, el('input', { type: 'radio', name: 'how', value: 'remove' }), ' Remove them')),
  ];
  return formDialog(`Keywords of ${plural(count, 'item')}`, fields, {
    submit: async () => {
      const form = words.closest('form');
      const list = words.value.split(',').map((word) => word.trim()).filter(Boolean);
      const remove = new FormData(form).get('how') === 'remove';
      const answer = await api.post('/api/assets/metadata', { ...selection, wholeBursts: true, [remove ? 'removeKeywords' : 'addKeywords']: list });
      showToast(`${remove ? 'Removed' : 'Added'} ${list.join(', ')} ${remove ? 'from' : 'to'} ${plural(answer.done, 'item')}.`);
      return true;
    },
  });
}

// A rating, 1 to 5 stars (0 removes it), for a selection.
export async function adjustRating(selection, { count }) {
  const stars = el('fieldset', { class: 'star-choice' }, el('legend', {}, 'Rating'),
    ...[0, 1, 2, 3, 4, 5].map((value) => el('label', { class: 'choice' },
      el('input', { type: 'radio', name: 'rating', value: String(value), checked: value === 0 }), ' ', value ? '★'.repeat(value) : 'None')));
  return formDialog(`Rate ${plural(count, 'item')}`, [stars], {
    submit: async () => {
      const rating = Number(new FormData(stars.closest('form')).get('rating'));
      const answer = await api.post('/api/assets/metadata', { ...selection, wholeBursts: true, rating });
      showToast(rating ? `${plural(answer.done, 'item')} rated ${'★'.repeat(rating)}.` : `The rating of ${plural(answer.done, 'item')} is removed.`);
      return true;
    },
  });
}

// A caption for a selection.
export async function adjustCaption(selection, { count }) {
  const caption = el('textarea', { name: 'caption', rows: '3', maxlength: '2000' });
  return formDialog(`Caption for ${plural(count, 'item')}`, [el('label', {}, 'Caption ', caption)], {
    submit: async () => {
      const answer = await api.post('/api/assets/metadata', { ...selection, wholeBursts: true, caption: caption.value });
      showToast(caption.value.trim() ? `${plural(answer.done, 'item')} captioned.` : `The caption of ${plural(answer.done, 'item')} is removed.`);
      return true;
    },
  });
}

// The Info panel's editors for one asset: title, caption, keywords and stars, each saved as it
// changes; `changed(asset)` hears the answer.
export function describeEditors(asset, { changed }) {
  const id = encodeURIComponent(asset.localIdentifier);
  const save = async (body, what) => {
    try {
      changed(await api.patch(`/api/assets/${id}`, body));
    } catch (error) {
      showToast(`The ${what} was not saved: ${error.status === 0 ? 'Shoebox cannot be reached' : error.message}.`);
    }
  };
  const text = (name, label, value, multiline) => {
    const field = el(multiline ? 'textarea' : 'input', { name, rows: multiline ? '2' : undefined, maxlength: '2000', placeholder: `Add a ${label.toLowerCase()}`, 'aria-label': label });
    field.value = value ?? '';
    field.addEventListener('change', () => { if (field.value.trim() !== (value ?? '')) save({ [name]: field.value }, label.toLowerCase()); });
    if (!multiline) field.addEventListener('keydown', (event) => { if (event.key === 'Enter') field.blur(); });
    return field;
  };
  const keywords = asset.keywords ?? [];
  const adder = el('input', { name: 'keyword', placeholder: 'Add a keyword', 'aria-label': 'Add a keyword', autocomplete: 'off' });
  adder.addEventListener('keydown', (event) => {
    if (event.key !== 'Enter' || !adder.value.trim()) return;
    event.preventDefault();
    save({ addKeywords: adder.value.split(',').map((word) => word.trim()).filter(Boolean) }, 'keyword');
  });
  const chips = el('ul', { class: 'keyword-chips', role: 'list', 'aria-label': 'Keywords' }, ...keywords.map((keyword) => el('li', { class: 'keyword-chip' },
    el('a', { href: `#/keyword/${encodeURIComponent(keyword)}` }, keyword),
    button('×', () => save({ removeKeywords: [keyword] }, 'keyword'), { className: 'chip-remove', ariaLabel: `Remove keyword ${keyword}` }))));
  const rating = asset.rating ?? 0;
  const stars = el('div', { class: 'stars', role: 'group', 'aria-label': `Rating: ${rating ? `${rating} of 5 stars` : 'none'}` },
    ...[1, 2, 3, 4, 5].map((value) => button(value <= rating ? '★' : '☆',
      () => save({ rating: value === rating ? 0 : value }, 'rating'),
      { className: `star${value <= rating ? ' on' : ''}`, ariaLabel: value === rating ? `Remove the rating` : `Rate ${value} of 5` })));
  return el('div', { class: 'describe-editors' },
    text('title', 'Title', asset.title, false), text('caption', 'Caption', asset.caption, true), stars, chips, adder);
}

// Reverts the date (`creationDate`) or place (`location`) of one asset to what its file says.
export async function revertToFile(asset, field) {
  return api.patch(`/api/assets/${encodeURIComponent(asset.localIdentifier)}`, { revert: [field] });
}
