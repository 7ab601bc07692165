// The browser's cameras, reported to the server: what the web presenter offers pickers (a camera
// picker is offered only the cameras this browser has). Every page of the app reports them when
// it loads and when they change; the picker's camera page adds what the camera in use can do.

import { api } from './api.js';

// The video inputs, with what the browser says of each without opening it.
export async function browserCameras() {
  if (!navigator.mediaDevices?.enumerateDevices) return [];
  const devices = await navigator.mediaDevices.enumerateDevices().catch(() => []);
  return devices.filter((device) => device.kind === 'videoinput').map((device) => {
    const capabilities = typeof device.getCapabilities === 'function' ? device.getCapabilities() : {};
    return { id: device.deviceId, label: device.label, facingMode: capabilities.facingMode?.[0] };
  });
}

// Reports this browser's cameras; `track` (a running camera's) adds its facing, torch and zoom.
export async function reportCameras(track = null) {
  const cameras = await browserCameras();
  if (track) {
    const settings = track.getSettings?.() ?? {};
    const capabilities = track.getCapabilities?.() ?? {};
    const own = cameras.find((camera) => camera.id && camera.id === settings.deviceId) ?? cameras[0];
    if (own) {
      own.facingMode = settings.facingMode ?? own.facingMode;
      own.torch = capabilities.torch === true;
      if (capabilities.zoom && capabilities.zoom.max > capabilities.zoom.min) own.zoom = { min: capabilities.zoom.min, max: capabilities.zoom.max };
    }
  }
  return api.post('/api/picker/cameras', { cameras }).catch(() => null);
}

// Reports now (unless `now` is false: the camera page reports once its camera runs) and
// whenever cameras come or go, with what `track()` (a running camera's track, or null) can do.
export function watchCameras({ now = true, track = () => null } = {}) {
  if (now) reportCameras();
  navigator.mediaDevices?.addEventListener?.('devicechange', () => reportCameras(track()));
}
