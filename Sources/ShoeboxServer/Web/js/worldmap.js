// An offline world map in SVG: the countries' outlines (Natural Earth's 1:110m countries, from
// GET /api/places/world, loaded once) in degrees — x is the longitude, y minus the latitude — so
// a view is a viewBox in degrees. No tile server, nothing from the network.

import { request } from './api.js';
import { el } from './util.js';

const SVG = 'http://www.w3.org/2000/svg';
let world = null;  // the outlines' promise

export function loadWorld() {
  world ??= request('GET', '/api/places/world').catch(() => ({ countries: [] }));
  return world;
}

export function svgElement(name, attributes = {}) {
  const node = document.createElementNS(SVG, name);
  for (const [key, value] of Object.entries(attributes)) node.setAttribute(key, String(value));
  return node;
}

// An <svg> with the outlines in a group of its own (class world-land), at `view` ({x, y, width,
// height} in degrees).
export async function worldSVG(view, { label = 'World map' } = {}) {
  const svg = svgElement('svg', { class: 'world-map-svg', role: 'img', 'aria-label': label, preserveAspectRatio: 'xMidYMid meet' });
  setView(svg, view);
  svg.append(svgElement('rect', { class: 'world-sea', x: -540, y: -270, width: 1080, height: 540 }));
  const land = svgElement('g', { class: 'world-land' });
  const { countries } = await loadWorld();
  for (const country of countries) {
    const path = svgElement('path', { d: country.d, 'data-code': country.code, 'vector-effect': 'non-scaling-stroke' });
    path.append(svgElement('title'));
    path.lastChild.textContent = country.name;
    land.append(path);
  }
  svg.append(land);
  return svg;
}

export function setView(svg, view) {
  svg.setAttribute('viewBox', `${view.x} ${view.y} ${view.width} ${view.height}`);
}

// A small map around a point with a pin: the info panel's.
export async function pointMap(latitude, longitude, { span = 16 } = {}) {
  const width = span, height = span * 0.6;
  const view = { x: longitude - width / 2, y: -latitude - height / 2, width, height };
  const svg = await worldSVG(view, { label: `Map: ${latitude.toFixed(3)}, ${longitude.toFixed(3)}` });
  svg.classList.add('point-map');
  const radius = width / 60;
  svg.append(svgElement('circle', { class: 'map-pin', cx: longitude, cy: -latitude, r: radius, 'vector-effect': 'non-scaling-stroke' }));
  return el('div', { class: 'point-map-frame' }, svg);
}
