// Shoebox's adjustment format (org.shoebox.adjustments) as the editor's preview draws it. The
// formulas are the library's (Adjustments+Color.swift, ImageEdit.swift): the full-size render the
// server makes on Save matches what the canvas shows (a browser test compares the two).

export const LIGHT_KEYS = ['exposure', 'contrast', 'highlights', 'shadows', 'saturation', 'warmth'];
export const LIGHT_LIMITS = { exposure: 2, contrast: 1, highlights: 1, shadows: 1, saturation: 1, warmth: 1 };

// Each filter's light (added to the user's, held in range) and its own channel mix.
export const FILTERS = {
  vivid: { light: { contrast: 0.15, saturation: 0.35 } },
  dramatic: { light: { contrast: 0.45, highlights: -0.2, shadows: -0.25, saturation: -0.25 } },
  warm: { light: { saturation: 0.1, warmth: 0.45 } },
  cool: { light: { warmth: -0.45 } },
  fade: { light: { contrast: -0.35, shadows: 0.35, saturation: -0.35 } },
  mono: { light: { saturation: -1 } },
  noir: { light: { contrast: 0.6, shadows: -0.2, saturation: -1 } },
  sepia: { light: { contrast: 0.1 }, matrix: [0.393, 0.769, 0.189, 0.349, 0.686, 0.168, 0.272, 0.534, 0.131] },
};

// The user's light plus the filter's, each held in its range.
export function combinedLight(light = {}, filter = null) {
  const extra = FILTERS[filter]?.light ?? {};
  const result = {};
  for (const key of LIGHT_KEYS) {
    const limit = LIGHT_LIMITS[key];
    result[key] = Math.min(limit, Math.max(-limit, (light[key] ?? 0) + (extra[key] ?? 0)));
  }
  return result;
}

const toLinear = (x) => (x <= 0.04045 ? x / 12.92 : ((x + 0.055) / 1.055) ** 2.4);
const toSRGB = (x) => (x <= 0.0031308 ? x * 12.92 : 1.055 * x ** (1 / 2.4) - 0.055);
const clamp01 = (x) => Math.min(1, Math.max(0, x));

// 256 output levels: exposure in linear light, then shadows, highlights and contrast.
export function toneCurve(light) {
  const gain = 2 ** light.exposure;
  const curve = new Uint8ClampedArray(256);
  for (let level = 0; level < 256; level += 1) {
    let x = level / 255;
    if (light.exposure !== 0) x = toSRGB(Math.min(1, toLinear(x) * gain));
    x = clamp01(x + light.shadows * x * (1 - x) * (1 - x));
    x = clamp01(x + light.highlights * x * x * (1 - x));
    x = clamp01(x - (light.contrast * Math.sin(2 * Math.PI * x)) / (2 * Math.PI));
    curve[level] = Math.round(x * 255);
  }
  return curve;
}

const multiply = (a, b) => Array.from({ length: 9 }, (_, index) => {
  const row = Math.floor(index / 3), column = index % 3;
  return a[row * 3] * b[column] + a[row * 3 + 1] * b[3 + column] + a[row * 3 + 2] * b[6 + column];
});

// The 3 × 3 channel mix: saturation, then warmth, then the filter's own.
export function colorMatrix(light, filter) {
  const luma = [0.2126, 0.7152, 0.0722];
  const s = light.saturation;
  const saturation = Array.from({ length: 9 }, (_, index) => {
    const row = Math.floor(index / 3), column = index % 3;
    return (row === column ? 1 + s : 0) - s * luma[column];
  });
  const warmth = [1 + 0.15 * light.warmth, 0, 0, 0, 1, 0, 0, 0, 1 - 0.15 * light.warmth];
  const mixed = multiply(warmth, saturation);
  const own = FILTERS[filter]?.matrix;
  return own ? multiply(own, mixed) : mixed;
}

// Whether light and filter change any pixel.
export function changesColor(light = {}, filter = null) {
  return !!filter || LIGHT_KEYS.some((key) => (light[key] ?? 0) !== 0);
}

// Applies the tone curve and the channel mix to canvas pixels in place.
export function applyColor(imageData, light, filter) {
  const tones = combinedLight(light, filter);
  const curve = toneCurve(tones);
  const m = colorMatrix(tones, filter);
  const data = imageData.data;
  for (let index = 0; index < data.length; index += 4) {
    const r = curve[data[index]], g = curve[data[index + 1]], b = curve[data[index + 2]];
    data[index] = m[0] * r + m[1] * g + m[2] * b;          // Uint8ClampedArray rounds and clips
    data[index + 1] = m[3] * r + m[4] * g + m[5] * b;
    data[index + 2] = m[6] * r + m[7] * g + m[8] * b;
  }
  return imageData;
}

// The largest centred rectangle of the same proportions inside a size turned by `degrees`.
export function straightenedSize(width, height, degrees) {
  if (!degrees) return { width, height };
  const radians = (Math.abs(degrees) * Math.PI) / 180;
  const cos = Math.cos(radians), sin = Math.sin(radians);
  const scale = Math.min(width / (width * cos + height * sin), height / (width * sin + height * cos));
  return { width: Math.max(1, Math.floor(width * scale)), height: Math.max(1, Math.floor(height * scale)) };
}

// Draws an upright source turned (quarter turns), flipped and straightened onto a new canvas of the
// straightened size: the geometry before the crop.
export function drawGeometry(source, sourceWidth, sourceHeight, { rotation = 0, flip = false, straighten = 0 }) {
  const turns = (((rotation / 90) % 4) + 4) % 4;
  const turnedWidth = turns % 2 ? sourceHeight : sourceWidth, turnedHeight = turns % 2 ? sourceWidth : sourceHeight;
  const size = straightenedSize(turnedWidth, turnedHeight, straighten);
  const canvas = document.createElement('canvas');
  canvas.width = size.width;
  canvas.height = size.height;
  const context = canvas.getContext('2d', { willReadFrequently: true });
  context.imageSmoothingQuality = 'high';
  context.translate(size.width / 2, size.height / 2);
  context.rotate((straighten * Math.PI) / 180);
  context.scale(flip ? -1 : 1, 1);
  context.rotate((turns * Math.PI) / 2);
  context.drawImage(source, -sourceWidth / 2, -sourceHeight / 2, sourceWidth, sourceHeight);
  return canvas;
}

// Adjustments as the server takes them: default values left out.
export function normalized(adjustments) {
  const result = {};
  const rotation = ((((adjustments.rotation ?? 0) % 360) + 360) % 360);
  if (rotation) result.rotation = rotation;
  if (adjustments.flip) result.flip = true;
  if (adjustments.straighten) result.straighten = Math.round(adjustments.straighten * 10) / 10;
  const crop = adjustments.crop;
  if (crop && !(crop.x === 0 && crop.y === 0 && crop.width === 1 && crop.height === 1)) result.crop = { ...crop };
  const light = {};
  for (const key of LIGHT_KEYS) if (adjustments.light?.[key]) light[key] = adjustments.light[key];
  if (Object.keys(light).length) result.light = light;
  if (adjustments.filter) result.filter = adjustments.filter;
  if (adjustments.trim) result.trim = { ...adjustments.trim };
  return result;
}
