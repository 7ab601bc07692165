// The picker's camera: the browser's own camera (getUserMedia, MediaRecorder) or a capture device
// of the server (a Motion JPEG preview), with Take Photo, Record / Stop, the front/back switch,
// flash or torch where there is one, the Retake / Use Photo review, and the app's overlay when
// the standard controls are off.

import { el, button } from './util.js';
import { cropSquare, trimMovie } from './editors.js';

const csrf = document.querySelector('meta[name="shoebox-csrf"]')?.content ?? '';

export class Camera {
  constructor(root, { base, state, call, say, editor }) {
    this.root = root;
    this.base = base;
    this.state = state;
    this.call = call;
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
    this.applyTransform();
    if (this.request.camera.showsControls) this.renderControls();
    else this.renderOverlay();
    this.update(this.state);
  }

  async startPreview() {
    this.stop();
    if (this.usesBrowser) {
      try {
        this.stream = await navigator.mediaDevices.getUserMedia({
          video: { facingMode: this.state.cameraDevice === 'front' ? 'user' : 'environment', width: { ideal: 1280 }, height: { ideal: 720 } },
          audio: this.request.mediaTypes.includes('public.movie'),
        });
      } catch (error) {
        this.say(`The browser's camera is not available: ${error.message}`);
        return;
      }
      const video = el('video', { autoplay: true, muted: true, playsinline: true, 'aria-label': 'Camera preview' });
      video.muted = true;
      video.srcObject = this.stream;
      this.video = video;
      this.view.replaceChildren(video);
      await video.play().catch(() => {});
    } else {
      this.video = null;
      this.view.replaceChildren(el('img', { src: `${this.base}/camera/preview?t=${Date.now()}`, alt: 'Camera preview' }));
    }
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

  // The torch of the browser's camera track, when it has one.
  get torchTrack() {
    const track = this.stream?.getVideoTracks()[0];
    return track?.getCapabilities?.().torch ? track : null;
  }

  renderControls() {
    const request = this.request;
    const items = [button('Cancel', () => this.call('cancel'))];
    const bothModes = request.mediaTypes.includes('public.image') && request.mediaTypes.includes('public.movie');
    if (bothModes) {
      items.push(button(this.mode === 'photo' ? 'Video' : 'Photo', async () => {
        await this.call('camera/settings', { mode: this.mode === 'photo' ? 'video' : 'photo' });
        this.renderControls();
      }, { ariaLabel: this.mode === 'photo' ? 'Switch to Video' : 'Switch to Photo' }));
    }
    if (this.mode === 'photo') {
      items.push(button('Take Photo', () => this.takePhoto(), { className: 'button shutter' }));
    } else {
      const recording = this.isRecording;
      items.push(button(recording ? 'Stop' : 'Record', () => (recording ? this.stopRecording() : this.startRecording()),
        { className: `button shutter${recording ? ' recording' : ''}` }));
    }
    items.push(button('Switch Camera', async () => {
      await this.call('camera/settings', { device: this.state.cameraDevice === 'front' ? 'rear' : 'front' });
      await this.startPreview();
    }));
    if (this.state.hasFlash) {
      const flash = el('select', { 'aria-label': 'Flash' }, ['auto', 'on', 'off'].map((value) => el('option', { value, selected: value === this.state.flashMode }, `Flash ${value}`)));
      flash.addEventListener('change', () => this.call('camera/settings', { flash: flash.value }));
      items.push(flash);
    } else if (this.torchTrack) {
      let on = false;
      items.push(button('Torch', async (event) => {
        on = !on;
        await this.torchTrack.applyConstraints({ advanced: [{ torch: on }] }).catch(() => {});
        event.currentTarget.setAttribute('aria-pressed', String(on));
      }));
    }
    this.controls.replaceChildren(...items);
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
      const canvas = el('canvas');
      canvas.width = video.videoWidth;
      canvas.height = video.videoHeight;
      canvas.getContext('2d').drawImage(video, 0, 0);
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
    const blob = await this.recorded;
    this.recorder = null;
    this.renderControlsIfShown();
    await this.send(blob, 'movie.webm');
  }

  renderControlsIfShown() { if (this.request.camera.showsControls) this.renderControls(); }

  async send(blob, filename) {
    this.say('Saving…');
    const response = await fetch(`${this.base}/captures?filename=${encodeURIComponent(filename)}`, {
      method: 'POST', body: blob, credentials: 'same-origin',
      headers: { 'X-Shoebox-CSRF': csrf, 'Content-Type': blob.type || 'application/octet-stream' },
    });
    const data = await response.json().catch(() => null);
    if (!response.ok) throw new Error(data?.error?.message ?? `the capture was refused (${response.status})`);
    this.say('');
    return data;
  }

  // The session changed: show the review of a new capture, or the camera again.
  update(state) {
    const wasReviewing = this.reviewingID;
    this.state = state;
    this.reviewingID = state.reviewing?.id ?? null;
    if (this.reviewingID && this.reviewingID !== wasReviewing) this.showReview(state.reviewing);
    if (!this.reviewingID) this.review.hidden = true;
    if (this.reviewingID && this.review.hidden === false) this.renderReviewControls(state.reviewing);
    if (this.request.camera.showsControls && !this.reviewingID) this.renderControls();
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
    items.push(button('Retake', () => this.call('camera/retake')));
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
    items.push(button(photo ? 'Use Photo' : 'Choose', () => this.call('camera/use'), { className: 'button primary' }));
    this.review.querySelector('.review-controls').replaceChildren(...items);
  }
}
