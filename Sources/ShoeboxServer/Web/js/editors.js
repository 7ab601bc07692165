// The picker's editors: a square crop the user moves and scales, and a movie trimmer bounded by
// the picker's maximum duration. Both answer in the original's units (pixels, seconds).

import { el, button } from './util.js';
import { askToDiscardChanges } from './dialog.js';

// Resolves with {x, y, width, height} in the original's upright pixels, or null when cancelled.
export function cropSquare(dialog, { imageURL, pixelWidth, pixelHeight, initial }) {
  return new Promise((resolve) => {
    const maxDisplay = Math.min(640, window.innerWidth - 60);
    const scale = Math.min(maxDisplay / pixelWidth, (window.innerHeight * 0.6) / pixelHeight, 1);
    const width = Math.round(pixelWidth * scale), height = Math.round(pixelHeight * scale);
    const largest = Math.min(pixelWidth, pixelHeight);
    let side = initial?.width ?? largest;
    let x = initial?.x ?? Math.floor((pixelWidth - side) / 2);
    let y = initial?.y ?? Math.floor((pixelHeight - side) / 2);
    const stage = el('div', { class: 'crop-stage' }, el('img', { src: imageURL, alt: '' }));
    stage.style.width = `${width}px`;
    stage.style.height = `${height}px`;
    const box = el('div', { class: 'crop-box', role: 'slider', tabindex: '0', 'aria-label': 'Crop area', 'aria-valuetext': '' });
    stage.append(box);
    const zoom = el('input', { type: 'range', min: '1', max: '8', step: '0.01', value: String(largest / side), 'aria-label': 'Zoom' });
    const readout = el('span', { class: 'size-readout' });
    const clamp = () => {
      side = Math.max(1, Math.min(largest, Math.round(side)));
      x = Math.max(0, Math.min(pixelWidth - side, Math.round(x)));
      y = Math.max(0, Math.min(pixelHeight - side, Math.round(y)));
    };
    const draw = () => {
      clamp();
      Object.assign(box.style, { left: `${x * scale}px`, top: `${y * scale}px`, width: `${side * scale}px`, height: `${side * scale}px` });
      readout.textContent = `${side} × ${side} px`;
      box.setAttribute('aria-valuetext', `${side} pixel square at ${x}, ${y}`);
    };
    let drag = null;
    box.addEventListener('pointerdown', (event) => { drag = { startX: event.clientX, startY: event.clientY, x, y }; box.setPointerCapture(event.pointerId); });
    box.addEventListener('pointermove', (event) => {
      if (!drag) return;
      x = drag.x + (event.clientX - drag.startX) / scale;
      y = drag.y + (event.clientY - drag.startY) / scale;
      draw();
    });
    box.addEventListener('pointerup', () => { drag = null; });
    box.addEventListener('keydown', (event) => {
      const step = event.shiftKey ? 50 : 10;
      const moves = { ArrowLeft: [-step, 0], ArrowRight: [step, 0], ArrowUp: [0, -step], ArrowDown: [0, step] };
      if (moves[event.key]) { event.preventDefault(); x += moves[event.key][0]; y += moves[event.key][1]; draw(); }
    });
    const rescale = (newSide) => {
      const centreX = x + side / 2, centreY = y + side / 2;
      side = newSide;
      x = centreX - side / 2;
      y = centreY - side / 2;
      draw();
    };
    zoom.addEventListener('input', () => rescale(largest / Number(zoom.value)));
    stage.addEventListener('wheel', (event) => {
      event.preventDefault();
      zoom.value = String(Math.min(8, Math.max(1, Number(zoom.value) * (event.deltaY < 0 ? 1.08 : 1 / 1.08))));
      rescale(largest / Number(zoom.value));
    }, { passive: false });
    const finish = (value) => { dialog.close(); resolve(value); };
    dialog.replaceChildren(
      el('h2', {}, 'Crop'), stage,
      el('div', { class: 'editor-controls' },
        el('label', {}, 'Zoom ', zoom), readout,
        el('span', {},
          button('Reset', () => { side = largest; x = (pixelWidth - side) / 2; y = (pixelHeight - side) / 2; zoom.value = '1'; draw(); }),
          ' ', button('Cancel', () => finish(null)), ' ',
          button('Done', () => finish({ x, y, width: side, height: side }), { className: 'button primary' }))));
    dialog.onclose = null;
    dialog.addEventListener('cancel', () => resolve(null), { once: true });
    draw();
    dialog.showModal();
    box.focus();
  });
}

// Resolves with {start, end} in seconds, or null when cancelled. With `save(range)`, Done waits
// for it in the open trimmer ("Trimming…", the buttons held; a failure is said there and Done
// offered again) and resolves with what it answers; with `revert()`, a Revert to Original button
// does the same for it. With `confirmDiscard` (the library's editor, as Photos does), Cancel and
// Escape ask before a changed trim is dropped; the picker's trim step cancels at once, as iOS's.
export function trimMovie(dialog, { videoURL, duration, maximum, initial, save = null, revert = null, confirmDiscard = false }) {
  return new Promise((resolve) => {
    const video = el('video', { class: 'trim-video', src: videoURL, controls: true, preload: 'metadata', 'aria-label': 'Movie' });
    const longest = Math.min(duration, maximum);
    let start = initial?.start ?? 0;
    let end = initial?.end ?? longest;
    const startInput = el('input', { type: 'range', min: '0', max: String(duration), step: '0.05', value: String(start), 'aria-label': 'Start' });
    const endInput = el('input', { type: 'range', min: '0', max: String(duration), step: '0.05', value: String(end), 'aria-label': 'End' });
    const startText = el('output', {}), endText = el('output', {}), note = el('p', { class: 'hint', 'aria-live': 'polite' });
    const update = (moved) => {
      start = Number(startInput.value);
      end = Number(endInput.value);
      if (end <= start) { if (moved === 'start') end = Math.min(duration, start + 0.1); else start = Math.max(0, end - 0.1); }
      if (end - start > maximum) { if (moved === 'start') end = start + maximum; else start = end - maximum; }
      startInput.value = String(start);
      endInput.value = String(end);
      startText.textContent = `${start.toFixed(2)} s`;
      endText.textContent = `${end.toFixed(2)} s`;
      note.textContent = `${(end - start).toFixed(2)} s of ${duration.toFixed(2)} s (at most ${maximum} s)`;
      if (moved) video.currentTime = moved === 'start' ? start : end;
    };
    startInput.addEventListener('input', () => update('start'));
    endInput.addEventListener('input', () => update('end'));
    video.addEventListener('timeupdate', () => { if (video.currentTime >= end) video.pause(); });
    const status = el('span', { class: 'trim-status', role: 'status' });
    let working = false, asking = false, opened = null;
    const range = () => `${start.toFixed(3)}–${end.toFixed(3)}`;
    const finish = (value) => {
      dialog.removeEventListener('cancel', onCancel);
      dialog.removeEventListener('keydown', onKey);
      dialog.removeEventListener('close', onClose);
      if (dialog.open) dialog.close();
      resolve(value);
    };
    // A close the page did not ask for (the browser's own, after repeated Escapes) cancels.
    const onClose = () => finish(null);
    // Cancel, the button or Escape: while the trim is saved it goes on (the trimmer closes when it
    // is done); a changed trim is dropped only once the person says so.
    const cancel = async () => {
      if (working || asking) return;
      if (confirmDiscard && range() !== opened) {
        asking = true;
        try {
          const discard = await askToDiscardChanges('movie');
          if (!discard) return;
        } finally {
          asking = false;
        }
      }
      finish(null);
    };
    const onCancel = (event) => { event.preventDefault(); cancel(); };
    const onKey = (event) => { if (event.key === 'Escape') { event.preventDefault(); cancel(); } };
    // Runs `work` with the trimmer held open and saying `doing`; closes with its answer.
    const run = async (doing, work) => {
      working = true;
      video.pause();
      for (const control of dialog.querySelectorAll('button, input')) control.disabled = true;
      status.replaceChildren(el('span', { class: 'spinner', 'aria-hidden': 'true' }), ` ${doing}`);
      try {
        const answer = await work();
        working = false;
        finish(answer);
      } catch (error) {
        working = false;
        for (const control of dialog.querySelectorAll('button, input')) control.disabled = false;
        status.textContent = `Not saved: ${error.message}`;
      }
    };
    const done = () => (save ? run('Trimming…', () => save({ start, end })) : finish({ start, end }));
    dialog.replaceChildren(
      el('h2', {}, 'Trim'), video,
      el('div', { class: 'trim-ranges' }, el('span', {}, 'Start'), startInput, startText, el('span', {}, 'End'), endInput, endText),
      note,
      el('div', { class: 'editor-controls' },
        el('span', {}, button('Play', () => { video.currentTime = start; video.play(); }),
          revert ? ' ' : null, revert ? button('Revert to Original', () => run('Reverting…', revert)) : null),
        status,
        el('span', {}, button('Cancel', cancel), ' ',
          button('Done', done, { className: 'button primary' }))));
    dialog.addEventListener('cancel', onCancel);
    dialog.addEventListener('keydown', onKey);
    dialog.addEventListener('close', onClose);
    update(null);
    opened = range();
    dialog.showModal();
  });
}
