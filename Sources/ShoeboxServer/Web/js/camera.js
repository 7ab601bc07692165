// The picker's camera: the browser's own camera (getUserMedia, MediaRecorder) or a capture device
// of the server (a Motion JPEG preview), with Take Photo, Record / Stop, the list of cameras,
// zoom (a slider, + and - keys, two fingers), flash or torch where there is one, the Retake / Use
// Photo review, and the app's overlay when the standard controls are off.

import { request } from './api.js';
import { el, button } from './util.js';
import { cropSquare, trimMovie } from './editors.js';
import { browserCameras, reportCameras } from './cameras.js';

const CHOSEN_CAMERA = 'shoebox.picker.camera';  // the browser camera last chosen (localStorage)

export class Camera {
  constructor(root, { base, state, call, say, editor }) {
    this.root = root;
    this.base = base;
    this.state = state;
    this.call = call;
    // A button's call whose failure `call` has said already (the status line): nothing more to
    // report. Use Photo and Cancel end the session, and a page that goes away with it loses the
    // answer; that is no error of the page's.
    this.settle = (path, body) => call(path, body).catch(() => null);
    this.say = say;
    this.editor = editor;
    this.view = root.querySelector('.camera-view');
    this.controls = root.querySelector('.camera-controls');
    this.overlay = root.querySelector('.camera-overlay');
    this.review = root.querySelector('.review');
    this.stream = null;
    this.recorder = null;
    this.busy = false;
  }

  get request() { return this.state.request; }
  get usesBrowser() { return this.state.cameraSource === 'presenter'; }
  get mode() { return this.state.captureMode; }

  async start() {
    await this.startPreview();
    if (this.unavailable) return;
    this.applyTransform();
    if (this.request.camera.showsControls) this.renderControls();
    else this.renderOverlay();
    this.update(this.state);
    this.watchZoomGestures();
  }

  async startPreview() {
    this.stop();
    this.digitalZoom = 1;
    if (this.usesBrowser) {
      const chosen = localStorage.getItem(CHOSEN_CAMERA);
      const known = await browserCameras();
      const video = { width: { ideal: 1280 }, height: { ideal: 720 }, zoom: true };
      if (chosen && known.some((camera) => camera.id === chosen)) video.deviceId = { exact: chosen };
      else video.facingMode = this.state.cameraDevice === 'front' ? 'user' : 'environment';
      try {
        this.stream = await navigator.mediaDevices.getUserMedia({ video, audio: this.request.mediaTypes.includes('public.movie') });
      } catch (error) {
        reportCameras();
        this.showUnavailable(error);
        return;
      }
      this.unavailable = false;
      // Now that the page may use the camera the browser names them all; the server learns what
      // this one can do (torch, zoom) for the pickers after.
      this.cameraList = await browserCameras();
      reportCameras(this.stream.getVideoTracks()[0]);
      const preview = el('video', { autoplay: true, muted: true, playsinline: true, 'aria-label': 'Camera preview' });
      preview.muted = true;
      preview.srcObject = this.stream;
      this.video = preview;
      this.view.replaceChildren(preview);
      await preview.play().catch(() => {});
    } else {
      this.video = null;
      this.view.replaceChildren(el('img', { src: `${this.base}/camera/preview?t=${Date.now()}`, alt: 'Camera preview' }));
    }
  }

  // The browser has no camera, or refused it: the page says so and offers nothing to press but
  // Cancel (the camera's controls, whose Cancel is the page's, are gone). (Before any page of the app had run, the server offered the browser's
  // cameras provisionally: this is where that is settled.)
  showUnavailable(error) {
    this.unavailable = true;
    const none = ['NotFoundError', 'DevicesNotFoundError', 'OverconstrainedError'].includes(error?.name);
    const denied = ['NotAllowedError', 'SecurityError', 'PermissionDeniedError'].includes(error?.name);
    const title = none ? 'No Camera' : denied ? 'Camera Not Allowed' : 'Camera Not Available';
    const text = none
      ? 'This browser has no camera. Connect one and reload this page, or press Cancel.'
      : denied
        ? 'This browser did not allow this page to use the camera. Allow it in the site’s settings and reload this page, or press Cancel.'
        : `The browser could not start its camera (${error?.message || error}). Reload this page to try again, or press Cancel.`;
    this.view.replaceChildren(el('div', { class: 'camera-unavailable', role: 'alert' }, el('h2', {}, title), el('p', {}, text),
      button('Cancel', () => this.settle('cancel'))));
    this.controls.replaceChildren();
    this.overlay.replaceChildren();
  }

  stop() {
    for (const track of this.stream?.getTracks() ?? []) track.stop();
    this.stream = null;
    const img = this.view.querySelector('img');
    if (img) img.src = '';
  }

  applyTransform() {
    const t = this.request.camera.viewTransform;
    if (t && (t.a !== 1 || t.b !== 0 || t.c !== 0 || t.d !== 1 || t.tx !== 0 || t.ty !== 0)) {
      this.view.style.transform = `matrix(${t.a}, ${t.b}, ${t.c}, ${t.d}, ${t.tx}, ${t.ty})`;
    }
  }

  get track() { return this.stream?.getVideoTracks()[0] ?? null; }

  // The torch of the browser's camera track, when it has one.
  get torchTrack() {
    return this.track?.getCapabilities?.().torch ? this.track : null;
  }

  // The zoom this camera offers: {min, max, step, value, digital}, or null. The browser's track
  // zooms itself where it can; a browser camera that cannot is zoomed digitally for photos (the
  // preview enlarged, the photo cut from the middle of the frame at the frame's size); a capture
  // device of the server zooms through the session.
  get zoom() {
    if (this.usesBrowser) {
      const range = this.track?.getCapabilities?.().zoom;
      if (range && range.max > range.min) {
        return { min: range.min, max: range.max, step: range.step || (range.max - range.min) / 100, value: this.track.getSettings().zoom ?? range.min };
      }
      if (!this.track || this.mode !== 'photo') return null;
      return { min: 1, max: 4, step: 0.05, value: this.digitalZoom ?? 1, digital: true };
    }
    const zoom = this.state.zoom;
    if (!zoom || !(zoom.maximum > zoom.minimum)) return null;
    return { min: zoom.minimum, max: zoom.maximum, step: 0.1, value: zoom.factor };
  }

  async setZoom(value) {
    const zoom = this.zoom;
    if (!zoom) return;
    const clamped = Math.round(Math.min(zoom.max, Math.max(zoom.min, value)) * 100) / 100;
    if (zoom.digital) {
      this.digitalZoom = clamped;
      if (this.video) this.video.style.transform = clamped === 1 ? '' : `scale(${clamped})`;
    } else if (this.usesBrowser) {
      await this.track.applyConstraints({ advanced: [{ zoom: clamped }] }).catch((error) => this.say(`Cannot zoom: ${error.message}`));
    } else {
      await this.call('camera/settings', { zoom: clamped });
    }
    const slider = this.controls.querySelector('input[aria-label="Zoom"]');
    if (slider) slider.value = String(clamped);
  }

  // The exposure this camera lets the user set: {min, max, step, value, apply(value)}, or null.
  // A capture device biases its auto exposure (EV); a browser track its exposure compensation,
  // or, without one, its exposure time in manual mode.
  get exposure() {
    if (!this.usesBrowser) {
      const exposure = this.state.exposure;
      if (!exposure || !(exposure.maximum > exposure.minimum)) return null;
      return { min: exposure.minimum, max: exposure.maximum, step: 0.1, value: exposure.bias,
        apply: (value) => this.call('camera/settings', { exposureBias: value }) };
    }
    const capabilities = this.track?.getCapabilities?.() ?? {};
    const settings = this.track?.getSettings?.() ?? {};
    const range = capabilities.exposureCompensation;
    if (range && range.max > range.min) {
      return { min: range.min, max: range.max, step: range.step || 0.1, value: settings.exposureCompensation ?? 0,
        apply: (value) => this.track.applyConstraints({ advanced: [{ exposureCompensation: value }] }) };
    }
    const time = capabilities.exposureTime;
    if (time && time.max > time.min && capabilities.exposureMode?.includes('manual')) {
      return { min: time.min, max: time.max, step: time.step || 1, value: settings.exposureTime ?? time.min,
        apply: (value) => this.track.applyConstraints({ advanced: [{ exposureMode: 'manual', exposureTime: value }] }) };
    }
    return null;
  }

  // Zoom by keys (+ and -, 0 for none) and by two fingers spreading or pinching on the picture.
  watchZoomGestures() {
    document.addEventListener('keydown', (event) => {
      if (this.root.hidden || event.target.closest?.('input, select, textarea') || event.ctrlKey || event.metaKey || event.altKey) return;
      const zoom = this.zoom;
      if (!zoom) return;
      if (event.key === '+' || event.key === '=') this.setZoom(zoom.value * 1.25);
      else if (event.key === '-') this.setZoom(zoom.value / 1.25);
      else if (event.key === '0') this.setZoom(zoom.min);
      else return;
      event.preventDefault();
    });
    const fingers = new Map();
    let start = null;
    const stage = this.view.parentElement;
    stage.addEventListener('pointerdown', (event) => {
      fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (fingers.size === 2 && this.zoom) {
        const [a, b] = [...fingers.values()];
        start = { distance: Math.hypot(a.x - b.x, a.y - b.y), value: this.zoom.value };
      }
    });
    stage.addEventListener('pointermove', (event) => {
      if (!fingers.has(event.pointerId)) return;
      fingers.set(event.pointerId, { x: event.clientX, y: event.clientY });
      if (fingers.size !== 2 || !start || start.distance < 10) return;
      const [a, b] = [...fingers.values()];
      const now = Date.now();
      if (now - (this.lastPinch ?? 0) < 80) return;  // a zoom a frame or so, not one an event
      this.lastPinch = now;
      this.setZoom(start.value * Math.hypot(a.x - b.x, a.y - b.y) / start.distance);
    });
    for (const type of ['pointerup', 'pointercancel', 'pointerleave']) {
      stage.addEventListener(type, (event) => { fingers.delete(event.pointerId); if (fingers.size < 2) start = null; });
    }
    stage.style.touchAction = 'none';
  }

  // The cameras to choose between: the browser's own, or the server's front and rear.
  cameraChoices() {
    if (this.usesBrowser) {
      const current = this.track?.getSettings?.().deviceId;
      return (this.cameraList ?? []).map((camera, index) => ({
        value: camera.id, label: camera.label || `Camera ${index + 1}`, selected: camera.id === current,
      }));
    }
    return (this.state.cameras ?? []).map((camera) => ({
      value: camera.device, label: camera.label, selected: camera.device === this.state.cameraDevice,
    }));
  }

  async chooseCamera(value) {
    if (this.usesBrowser) {
      localStorage.setItem(CHOSEN_CAMERA, value);
      const chosen = this.cameraList?.find((camera) => camera.id === value);
      const facing = chosen && (/back|rear|environment/i.test(chosen.label) ? 'rear' : /front|user|facetime/i.test(chosen.label) ? 'front' : null);
      if (facing && facing !== this.state.cameraDevice) await this.call('camera/settings', { device: facing }).catch(() => {});
    } else {
      await this.call('camera/settings', { device: value });
    }
    await this.startPreview();
    this.renderControlsIfShown();
  }

  renderControls() {
    const request = this.request;
    const items = [button('Cancel', () => this.settle('cancel'))];
    const bothModes = request.mediaTypes.includes('public.image') && request.mediaTypes.includes('public.movie');
    if (bothModes) {
      items.push(button(this.mode === 'photo' ? 'Video' : 'Photo', async () => {
        await this.call('camera/settings', { mode: this.mode === 'photo' ? 'video' : 'photo' });
        if (this.digitalZoom !== 1) await this.setZoom(1);  // a digital zoom is for photos
        this.digitalZoom = 1;
        if (this.video) this.video.style.transform = '';
        this.renderControls();
      }, { ariaLabel: this.mode === 'photo' ? 'Switch to Video' : 'Switch to Photo' }));
    }
    if (this.mode === 'photo') {
      items.push(button('Take Photo', () => this.takePhoto(), { className: 'button shutter' }));
    } else {
      const recording = this.isRecording;
      items.push(button(recording ? 'Stop' : 'Record', () => (recording ? this.stopRecording() : this.startRecording()),
        { className: `button shutter${recording ? ' recording' : ''}` }));
      if (recording) {
        this.recordingSince ??= performance.now();
        items.push(this.recordingTimer());
      } else {
        this.recordingSince = null;
      }
    }
    const choices = this.cameraChoices();
    if (choices.length > 1) {
      const list = el('select', { 'aria-label': 'Camera' }, choices.map((choice) => el('option', { value: choice.value, selected: choice.selected }, choice.label)));
      list.addEventListener('change', () => this.chooseCamera(list.value));
      items.push(list);
    }
    const zoom = this.zoom;
    if (zoom) {
      const slider = el('input', { type: 'range', 'aria-label': 'Zoom', min: String(zoom.min), max: String(zoom.max), step: String(zoom.step), value: String(zoom.value) });
      slider.addEventListener('input', () => {
        const now = Date.now();
        if (now - (this.lastSlide ?? 0) < 100) return;
        this.lastSlide = now;
        this.setZoom(Number(slider.value));
      });
      slider.addEventListener('change', () => this.setZoom(Number(slider.value)));
      items.push(el('label', { className: 'zoom' }, [el('span', {}, 'Zoom'), slider]));
    }
    const exposure = this.exposure;
    if (exposure) {
      const slider = el('input', { type: 'range', 'aria-label': 'Exposure', min: String(exposure.min), max: String(exposure.max), step: String(exposure.step), value: String(exposure.value) });
      slider.addEventListener('change', () => Promise.resolve(this.exposure?.apply(Number(slider.value))).catch((error) => this.say(`Cannot set the exposure: ${error.message}`)));
      items.push(el('label', { className: 'zoom' }, [el('span', {}, 'Exposure'), slider]));
    }
    // A flash: a capture device's, or the browser camera's torch lit for the shot.
    if (this.state.hasFlash || this.torchTrack) {
      const flash = el('select', { 'aria-label': 'Flash' }, ['auto', 'on', 'off'].map((value) => el('option', { value, selected: value === this.state.flashMode }, `Flash ${value}`)));
      flash.addEventListener('change', () => this.call('camera/settings', { flash: flash.value }));
      items.push(flash);
    }
    if (this.torchTrack && this.mode === 'video') {
      let on = false;
      items.push(button('Torch', async (event) => {
        on = !on;
        await this.torchTrack.applyConstraints({ advanced: [{ torch: on }] }).catch(() => {});
        event.currentTarget.setAttribute('aria-pressed', String(on));
      }));
    }
    this.controls.replaceChildren(...items);
  }

  // The time recorded so far, as a camera shows it (0:07), ticking while the recording lasts.
  recordingTimer() {
    const timer = el('span', { class: 'recording-time', role: 'timer', 'aria-label': 'Recording time' });
    const tick = () => {
      const seconds = Math.floor((performance.now() - this.recordingSince) / 1000);
      timer.dataset.seconds = String(seconds);
      timer.textContent = `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, '0')}`;
    };
    tick();
    clearInterval(this.recordingTick);
    this.recordingTick = setInterval(() => {
      if (!timer.isConnected || this.recordingSince == null) { clearInterval(this.recordingTick); return; }
      tick();
    }, 250);
    return timer;
  }

  // Whether the browser camera's flash fires for the next photo: `on`, or `auto` in a dark
  // picture (its mean brightness under 30 %, as the server's cameras decide).
  flashFires(video) {
    if (!this.torchTrack || this.state.flashMode === 'off') return false;
    if (this.state.flashMode === 'on') return true;
    const probe = el('canvas');
    probe.width = 32; probe.height = 32;
    const context = probe.getContext('2d', { willReadFrequently: true });
    context.drawImage(video, 0, 0, 32, 32);
    const pixels = context.getImageData(0, 0, 32, 32).data;
    let sum = 0;
    for (let index = 0; index < pixels.length; index += 4) sum += (pixels[index] + pixels[index + 1] + pixels[index + 2]) / 3;
    return sum / (pixels.length / 4) / 255 < 0.3;
  }

  // The app's own controls (cameraOverlay): elements with data-picker-action act.
  renderOverlay() {
    this.controls.replaceChildren();
    const template = document.createElement('template');
    template.innerHTML = this.request.camera.overlay ?? '';
    for (const script of template.content.querySelectorAll('script')) script.remove();
    this.overlay.replaceChildren(template.content);
    this.overlay.addEventListener('click', (event) => {
      const target = event.target.closest('[data-picker-action]');
      if (target) this.perform(target.dataset.pickerAction);
    });
  }

  get isRecording() { return this.recorder?.state === 'recording' || (!this.usesBrowser && this.state.isRecording); }

  // An action from the overlay, or a command the app sent (custom controls).
  async perform(action) {
    switch (action) {
      case 'takePicture': await this.takePhoto(); break;
      case 'startVideoCapture': await this.startRecording(); break;
      case 'stopVideoCapture': await this.stopRecording(); break;
      case 'cancel': await this.call('cancel'); break;
      case 'done': await this.call('dismiss'); break;
      default: break;
    }
  }

  async takePhoto() {
    // A press while the last picture is still on its way is taken next, not dropped.
    if (this.busy) { this.queuedShots = (this.queuedShots ?? 0) + 1; return; }
    this.busy = true;
    try {
      if (!this.usesBrowser) {
        await this.call('camera/takePicture');
        return;
      }
      const video = this.video;
      if (!video?.videoWidth) { this.say('The camera has no picture yet.'); return; }
      const fires = this.flashFires(video);
      if (fires) {
        // The torch, lit long enough for the camera to expose for it.
        await this.torchTrack.applyConstraints({ advanced: [{ torch: true }] }).catch(() => {});
        await new Promise((resolve) => setTimeout(resolve, 300));
      }
      const canvas = el('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      // A digital zoom: the middle of the frame, at the frame's size.
      const zoom = this.digitalZoom ?? 1;
      const width = video.videoWidth / zoom, height = video.videoHeight / zoom;
      canvas.getContext('2d').drawImage(video, (video.videoWidth - width) / 2, (video.videoHeight - height) / 2, width, height,
        0, 0, canvas.width, canvas.height);
      if (fires) await this.torchTrack.applyConstraints({ advanced: [{ torch: false }] }).catch(() => {});
      const blob = await new Promise((resolve) => canvas.toBlob(resolve, 'image/jpeg', 0.92));
      await this.send(blob, 'photo.jpg');
    } catch (error) {
      this.say(error.message);
    } finally {
      this.busy = false;
      if (this.queuedShots) { this.queuedShots -= 1; this.takePhoto(); }
    }
  }

  async startRecording() {
    if (this.isRecording) return;
    if (!this.usesBrowser) {
      await this.call('camera/startVideoCapture');
      this.renderControlsIfShown();
      return;
    }
    if (!this.stream) return;
    const type = ['video/webm;codecs=vp9,opus', 'video/webm;codecs=vp8,opus', 'video/webm'].find((candidate) => MediaRecorder.isTypeSupported(candidate));
    this.chunks = [];
    this.recorder = new MediaRecorder(this.stream, type ? { mimeType: type } : {});
    this.recorder.ondataavailable = (event) => { if (event.data.size) this.chunks.push(event.data); };
    this.recorded = new Promise((resolve) => { this.recorder.onstop = () => resolve(new Blob(this.chunks, { type: 'video/webm' })); });
    // The flash for a movie is the torch, lit while recording (`auto`: in a dark picture).
    if (this.video && this.flashFires(this.video)) {
      this.torchLit = true;
      await this.torchTrack.applyConstraints({ advanced: [{ torch: true }] }).catch(() => { this.torchLit = false; });
    }
    this.recorder.start(250);
    this.limit = setTimeout(() => this.stopRecording(), this.request.videoMaximumDuration * 1000);
    this.renderControlsIfShown();
  }

  async stopRecording() {
    if (!this.usesBrowser) {
      if (this.state.isRecording) await this.call('camera/stopVideoCapture');
      this.renderControlsIfShown();
      return;
    }
    if (this.recorder?.state !== 'recording') return;
    clearTimeout(this.limit);
    this.recorder.stop();
    if (this.torchLit) {
      this.torchLit = false;
      await this.torchTrack?.applyConstraints({ advanced: [{ torch: false }] }).catch(() => {});
    }
    const blob = await this.recorded;
    this.recorder = null;
    this.renderControlsIfShown();
    await this.send(blob, 'movie.webm');
  }

  renderControlsIfShown() { if (this.request.camera.showsControls) this.renderControls(); }

  async send(blob, filename) {
    this.say('Saving…', { progress: true });
    const data = await request('POST', `${this.base}/captures?filename=${encodeURIComponent(filename)}`,
                               { body: blob, type: blob.type, refused: 'the capture was refused' });
    this.say('');
    return data;
  }

  // The session changed: show the review of a new capture, or the camera again.
  update(state) {
    const wasReviewing = this.reviewingID;
    this.state = state;
    if (this.unavailable) return;  // the page says there is no camera; nothing to draw
    this.reviewingID = state.reviewing?.id ?? null;
    if (this.reviewingID && this.reviewingID !== wasReviewing) this.showReview(state.reviewing);
    if (!this.reviewingID) this.review.hidden = true;
    if (this.reviewingID && this.review.hidden === false) this.renderReviewControls(state.reviewing);
    if (this.request.camera.showsControls && !this.reviewingID) {
      // Drawn again only when what they show changed: a zoom slider being dragged stays put.
      const shown = JSON.stringify([state.captureMode, state.isRecording, state.cameraDevice, state.flashMode, state.hasFlash,
        state.cameras, state.zoom && [state.zoom.minimum, state.zoom.maximum]]);
      if (shown !== this.shownControls || !this.controls.childElementCount) {
        this.shownControls = shown;
        this.renderControls();
      } else if (state.zoom) {
        const slider = this.controls.querySelector('input[aria-label="Zoom"]');
        if (slider && document.activeElement !== slider) slider.value = String(state.zoom.factor);
      }
    }
  }

  showReview(capture) {
    const url = `${this.base}/captures/${encodeURIComponent(capture.id)}`;
    const media = capture.mediaType === 'public.image'
      ? el('img', { src: url, alt: `The photo, ${capture.pixelSize.width} by ${capture.pixelSize.height}` })
      : el('video', { src: url, controls: true, 'aria-label': 'The movie' });
    this.review.querySelector('.review-media').replaceChildren(media);
    this.review.hidden = false;
    this.renderReviewControls(capture);
  }

  renderReviewControls(capture) {
    const photo = capture.mediaType === 'public.image';
    const items = [];
    if (!photo) items.push(button('Play', () => this.review.querySelector('video')?.play()));
    items.push(button('Retake', () => this.settle('camera/retake')));
    if (this.request.allowsEditing) {
      items.push(photo
        ? button('Crop', async () => {
          const rect = await cropSquare(this.editor, {
            imageURL: `${this.base}/captures/${encodeURIComponent(capture.id)}`, pixelWidth: capture.pixelSize.width,
            pixelHeight: capture.pixelSize.height, initial: this.state.edits?.[capture.id]?.cropRect,
          });
          if (rect) await this.call('crop', { id: capture.id, rect });
        })
        : button('Trim', async () => {
          const range = await trimMovie(this.editor, {
            videoURL: `${this.base}/captures/${encodeURIComponent(capture.id)}`, duration: capture.duration,
            maximum: this.request.videoMaximumDuration, initial: null,
          });
          if (range) await this.call('trim', { id: capture.id, start: range.start, end: range.end });
        }));
    }
    items.push(button(photo ? 'Use Photo' : 'Choose', () => this.settle('camera/use'), { className: 'button primary' }));
    this.review.querySelector('.review-controls').replaceChildren(...items);
  }
}
