// Touch gestures from pointer events, which serve fingers, pens and the mouse alike (Chromium makes
// them from the DevTools protocol's touch events too, which the phone tests send).

const LONG_PRESS_MS = 450;  // Android's long-press timeout is 500 ms; the page fires a little before the browser's menu
export const SLOP = 10;            // px a finger may wander and still be holding still (or tapping)

// A finger (or pen) held still on an element matching `selector` inside `container` for a moment:
// callback(element, event). The click that the browser may send when the finger lifts is
// swallowed, so a long press never also counts as a tap; so is the browser's context menu.
export function watchLongPress(container, selector, callback) {
  let press = null;            // the finger down: {target, x, y, timer}
  let swallowClick = false;    // the press fired: its own click is not a tap
  const cancel = () => { if (press) clearTimeout(press.timer); press = null; };
  container.addEventListener('pointerdown', (event) => {
    cancel();
    swallowClick = false;
    const target = event.target.closest(selector);
    if (!target || event.pointerType === 'mouse' || !event.isPrimary) return;
    press = { target, x: event.clientX, y: event.clientY };
    press.timer = setTimeout(() => {
      const { target: pressed } = press;
      press = null;
      swallowClick = true;
      callback(pressed, event);
    }, LONG_PRESS_MS);
  });
  container.addEventListener('pointermove', (event) => {
    if (press && Math.hypot(event.clientX - press.x, event.clientY - press.y) > SLOP) cancel();
  });
  // A second finger, a lift, or the browser taking the touch to scroll: no long press.
  for (const type of ['pointerup', 'pointercancel']) container.addEventListener(type, cancel);
  container.addEventListener('click', (event) => {
    if (!swallowClick) return;
    swallowClick = false;
    event.stopImmediatePropagation();
    event.preventDefault();
  }, { capture: true });
  container.addEventListener('contextmenu', (event) => {
    if (press || swallowClick) event.preventDefault();
  });
}

// Whether `tap` ({x, y, time}) is the second of two quick taps in about the same place, `last`
// being the one before it (the caller keeps it between taps).
export function isDoubleTap(last, tap) {
  return !!last && tap.time - last.time < 350 && Math.hypot(tap.x - last.x, tap.y - last.y) < 40;
}
