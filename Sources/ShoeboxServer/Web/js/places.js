// The Places view: a world map with where the photos were taken as clusters (a count in a
// circle, from GET /api/places/clusters at the map's scale; a click shows their photos), and the
// countries and cities with counts and a cover (GET /api/places). The map zooms with the wheel,
// the + and − buttons or a double click, and pans by dragging; it is drawn offline (worldmap.js).

import { api } from './api.js';
import { el, thumbnailURL } from './util.js';
import { worldSVG, setView, svgElement } from './worldmap.js';

const WORLD = { x: -180, y: -90, width: 360, height: 180 };
// Cell sizes the clusters are asked at: about 24 cells across whatever the map shows.
const CELLS = [30, 15, 8, 4, 2, 1, 0.5, 0.25, 0.12, 0.06, 0.03, 0.015];

export class PlacesView {
  // element: the section; openPlace({place, title}) and openRegion({region, title}) show a grid.
  constructor(element, { openPlace, openRegion }) {
    this.element = element;
    this.openPlace = openPlace;
    this.openRegion = openRegion;
    this.view = { ...WORLD };
    this.cell = null;
    this.requested = 0;
  }

  async show() {
    const places = await api.get('/api/places');
    const mapFrame = el('div', { class: 'world-map' });
    const zoom = (factor) => this.zoomBy(factor, this.view.x + this.view.width / 2, this.view.y + this.view.height / 2);
    const controls = el('div', { class: 'map-controls' },
      el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Zoom in', onclick: () => zoom(0.5) }, '+'),
      el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Zoom out', onclick: () => zoom(2) }, '−'),
      el('button', { type: 'button', class: 'icon-button', 'aria-label': 'Whole world', onclick: () => this.setView({ ...WORLD }) }, '⌂'));
    const list = el('div', { class: 'place-list' });
    const total = places.countries.reduce((sum, country) => sum + country.count, 0);
    const summary = el('p', { class: 'hint' }, total
      ? `${total.toLocaleString()} item${total === 1 ? '' : 's'} with a place, in ${places.countries.length} countr${places.countries.length === 1 ? 'y' : 'ies'}.`
      : places.placesInstalled === false
        ? 'No place table is installed (scripts/places install): photos cannot be named by place.'
        : 'No photos with a location yet. Photos taken with GPS on appear here, on the map and by country and city.');
    this.element.replaceChildren(el('h2', { id: 'places-title' }, 'Places'), summary, el('div', { class: 'map-frame' }, mapFrame, controls), list);
    this.svg = await worldSVG(this.view, { label: 'Map of where the photos were taken' });
    this.clusters = svgElement('g', { class: 'map-clusters' });
    this.svg.append(this.clusters);
    mapFrame.append(this.svg);
    this.watchGestures(mapFrame);
    list.replaceChildren(...places.countries.map((country) => this.countryCard(country)));
    // Countries with photos are tinted.
    const codes = new Set(places.countries.map((country) => country.code));
    for (const path of this.svg.querySelectorAll('.world-land path')) path.classList.toggle('visited', codes.has(path.dataset.code));
    await this.loadClusters();
  }

  countryCard(country) {
    const cover = country.cover
      ? el('img', { src: thumbnailURL('/api/assets', country.cover, 256, 'fill'), alt: '', loading: 'lazy', decoding: 'async' })
      : el('span', { class: 'placeholder', 'aria-hidden': 'true' });
    const open = el('button', { type: 'button', class: 'place-cover', 'aria-label': `${country.name}, ${country.count}`,
      onclick: () => this.openPlace({ place: country.code, title: country.name }) },
    cover, el('span', { class: 'place-name' }, country.name), el('span', { class: 'place-count' }, country.count.toLocaleString()));
    const cities = el('ul', { class: 'city-list', role: 'list' }, ...country.cities.map((city) => el('li', {},
      el('button', { type: 'button', class: 'link-button city-link', 'aria-label': `${city.name}, ${country.name}, ${city.count}`,
        onclick: () => this.openPlace({ place: `${country.code}/${city.name}`, title: `${city.name}, ${country.name}` }) },
      city.name, el('span', { class: 'place-count' }, ` ${city.count.toLocaleString()}`)))));
    return el('section', { class: 'country-card', 'data-code': country.code }, open, cities);
  }

  // The cell size for the current view, from the ladder.
  cellFor(view) {
    const wanted = view.width / 24;
    return CELLS.find((cell) => cell <= wanted) ?? CELLS[CELLS.length - 1];
  }

  async loadClusters() {
    const cell = this.cellFor(this.view);
    if (cell === this.cell && this.data) { this.drawClusters(); return; }
    const ticket = ++this.requested;
    const answer = await api.get(`/api/places/clusters?cell=${cell}`);
    if (ticket !== this.requested) return;  // the map moved on meanwhile
    this.cell = cell;
    this.data = answer.clusters;
    this.drawClusters();
  }

  // Circles sized by count (in screen pixels, whatever the zoom), with the count in them.
  drawClusters() {
    const pixels = this.svg.getBoundingClientRect().width || 800;
    // Degrees per pixel, and marks a little smaller on a small map (a phone's).
    const unit = this.view.width / pixels * Math.max(0.55, Math.min(1, pixels / 700));
    const most = Math.max(1, ...this.data.map((cluster) => cluster.count));
    this.clusters.replaceChildren(...this.data.map((cluster) => {
      const radius = (11 + 13 * Math.sqrt(cluster.count / most)) * unit;
      const label = `${cluster.count.toLocaleString()} item${cluster.count === 1 ? '' : 's'}${cluster.cover?.place ? ` near ${cluster.cover.place}` : ''}`;
      const group = svgElement('g', { class: 'map-cluster', role: 'button', tabindex: '0', 'aria-label': label, 'data-count': cluster.count });
      group.append(svgElement('circle', { cx: cluster.longitude, cy: -cluster.latitude, r: radius }));
      const text = svgElement('text', { x: cluster.longitude, y: -cluster.latitude, 'font-size': 11 * unit, 'text-anchor': 'middle', 'dominant-baseline': 'central' });
      text.textContent = cluster.count > 999 ? `${Math.round(cluster.count / 100) / 10}k` : String(cluster.count);
      group.append(text);
      const open = () => this.openRegion({ region: cluster.region, title: cluster.cover?.place ? `Near ${cluster.cover.place}` : 'On the map' });
      group.addEventListener('click', (event) => { if (!this.dragged) open(); event.stopPropagation(); });
      group.addEventListener('keydown', (event) => { if (event.key === 'Enter' || event.key === ' ') { event.preventDefault(); open(); } });
      return group;
    }));
  }

  setView(view) {
    // Never smaller than a city, never beyond the world's height.
    view.width = Math.min(720, Math.max(0.05, view.width));
    view.height = view.width / 2;
    view.y = Math.max(-90 - view.height / 4, Math.min(90 - view.height * 0.75, view.y));
    this.view = view;
    setView(this.svg, view);
    this.drawClusters();
    clearTimeout(this.pending);
    this.pending = setTimeout(() => this.loadClusters(), 120);
  }

  // Zooms by `factor` (below 1: in) keeping the point (x, y) in degrees where it is.
  zoomBy(factor, x, y) {
    const view = this.view;
    const width = Math.min(720, Math.max(0.05, view.width * factor));
    const scale = width / view.width;
    this.setView({ x: x - (x - view.x) * scale, y: y - (y - view.y) * scale, width, height: width / 2 });
  }

  // The point under a pointer event, in degrees.
  pointAt(event) {
    const rect = this.svg.getBoundingClientRect();
    // preserveAspectRatio meet: the view fills the width (the frame is 2:1).
    const scale = Math.max(this.view.width / rect.width, this.view.height / rect.height);
    const offsetX = (rect.width * scale - this.view.width) / 2, offsetY = (rect.height * scale - this.view.height) / 2;
    return { x: this.view.x - offsetX + (event.clientX - rect.left) * scale, y: this.view.y - offsetY + (event.clientY - rect.top) * scale, scale };
  }

  watchGestures(frame) {
    frame.addEventListener('wheel', (event) => {
      event.preventDefault();
      const { x, y } = this.pointAt(event);
      this.zoomBy(event.deltaY > 0 ? 1.25 : 0.8, x, y);
    }, { passive: false });
    frame.addEventListener('dblclick', (event) => {
      const { x, y } = this.pointAt(event);
      this.zoomBy(0.5, x, y);
    });
    let drag = null;
    frame.addEventListener('pointerdown', (event) => {
      if (event.button > 0) return;
      drag = { id: event.pointerId, x: event.clientX, y: event.clientY, view: { ...this.view }, scale: this.pointAt(event).scale };
      this.dragged = false;
    });
    frame.addEventListener('pointermove', (event) => {
      if (!drag || drag.id !== event.pointerId) return;
      const dx = event.clientX - drag.x, dy = event.clientY - drag.y;
      if (!this.dragged && Math.hypot(dx, dy) < 4) return;
      if (!this.dragged) { try { frame.setPointerCapture(event.pointerId); } catch { /* a synthetic pointer */ } }
      this.dragged = true;
      this.setView({ ...drag.view, x: drag.view.x - dx * drag.scale, y: drag.view.y - dy * drag.scale });
    });
    const end = () => { drag = null; setTimeout(() => { this.dragged = false; }, 0); };
    frame.addEventListener('pointerup', end);
    frame.addEventListener('pointercancel', end);
  }
}
