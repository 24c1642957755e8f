// The uPlot side of `cargo xtask bench`'s chart comparison: the same synthetic 100,000-point
// scatter as the app's hidden /_bench/scatter/ page (benchdeck_core::chart::synthetic::scatter,
// copied here operation for operation), drawn by uPlot in scatter mode (mode 2, one filled
// Path2D of dots per series) at the same size, and timed the same way:
//
// - first: `new uPlot(...)` until its first `draw` hook;
// - redraw: `setData` with the same data (new scales, axes and paths), committed at once;
// - toggle: hiding and showing the second series (`setSeries`), committed at once.
//
// Each timing ends with a one-pixel getImageData so the browser rasterises the drawing, and the
// page waits two animation frames between draws, exactly like the benchdeck page. The results
// go, as JSON of the same shape, into <pre id="bench-results">, then `charts-ready` is marked.
'use strict';

const POINTS = 100000;
const SIZE = [960, 460];
const SEED = 0x5eedc4a7n;
const REDRAWS = 10;
const TOGGLES = 10;
// benchdeck's light palette, slots 0 and 1 (core/src/chart/theme.rs).
const COLORS = ['rgb(0,114,178)', 'rgb(230,159,0)'];

const MASK = (1n << 64n) - 1n;

// Marsaglia's xorshift64 (13, 7, 17), as chart::synthetic::XorShift.
class XorShift {
  constructor(seed) {
    this.s = seed === 0n ? 1n : seed;
  }
  nextU64() {
    let s = this.s;
    s ^= (s << 13n) & MASK;
    s ^= s >> 7n;
    s ^= (s << 17n) & MASK;
    this.s = s;
    return s;
  }
  unit() {
    return Number(this.nextU64() >> 11n) / 9007199254740992;
  }
}

// chart::synthetic::scatter(n): per series [xs, ys], and the checksum both pages report.
function scatter(n) {
  const rng = new XorShift(SEED);
  const halves = [Math.floor(n / 2), n - Math.floor(n / 2)];
  const shapes = [[180.0, 0.35, 900.0], [420.0, 0.22, 1400.0]];
  const series = [];
  let checksum = 0;
  for (let k = 0; k < 2; k++) {
    const count = halves[k];
    const [base, slope, spread] = shapes[k];
    const step = 4032.0 / Math.max(count, 1);
    const xs = new Array(count);
    const ys = new Array(count);
    for (let i = 0; i < count; i++) {
      const u1 = rng.unit();
      const u2 = rng.unit();
      const u3 = rng.unit();
      const x = 64.0 + (i + u1) * step;
      const y = base + slope * x + spread * u2 * u3;
      xs[i] = x;
      ys[i] = y;
      checksum += x + y;
    }
    series.push([xs, ys]);
  }
  return { series, checksum };
}

function checkGenerator() {
  const rng = new XorShift(SEED);
  const got = [rng.nextU64(), rng.nextU64(), rng.nextU64()];
  const want = [0x1794b0a1f069d6een, 0x9fe0a9f36ea77ec3n, 0x7894e5540f81e0fen];
  if (got.some((v, i) => v !== want[i])) {
    throw new Error(`the xorshift copy disagrees with core: ${got.map(v => v.toString(16))}`);
  }
}

function nextFrame() {
  return new Promise(resolve => requestAnimationFrame(() => requestAnimationFrame(resolve)));
}

// Reads back one pixel, which makes the browser rasterise what was drawn; returns how long it
// took, milliseconds.
function raster(u) {
  const t0 = performance.now();
  u.ctx.getImageData(0, 0, 1, 1);
  return performance.now() - t0;
}

function timed(name, f) {
  const full = `uplot:${name}`;
  performance.mark(`${full}:start`);
  const t0 = performance.now();
  const out = f();
  const t1 = performance.now();
  performance.mark(`${full}:end`);
  performance.measure(full, `${full}:start`, `${full}:end`);
  return [out, t1 - t0];
}

async function run(out) {
  checkGenerator();
  const [generated, generateMs] = timed('generate', () => scatter(POINTS));
  out.generate_ms = generateMs;
  out.checksum = generated.checksum;
  const data = [null, ...generated.series];
  await nextFrame();

  let onDraw = null;
  const opts = {
    mode: 2,
    width: SIZE[0],
    height: SIZE[1],
    title: 'Synthetic scatter, 100,000 points',
    legend: { live: false },
    scales: { x: { time: false } },
    axes: [
      { label: 'Input tokens (synthetic) (tokens)' },
      { label: 'E2E latency (synthetic) (ms)' },
    ],
    series: [
      {},
      ...['synthetic A', 'synthetic B'].map((label, k) => ({
        label,
        stroke: COLORS[k],
        fill: COLORS[k],
        paths: uPlot.paths.points(),
        // Dots of radius 3 with no outline, like benchdeck's; no extra cursor markers.
        points: { show: false, size: 6, width: 0 },
      })),
    ],
    hooks: { draw: [() => onDraw && onDraw()] },
  };
  const el = document.getElementById('chart');
  let u = null;
  const t0 = performance.now();
  performance.mark('uplot:first:start');
  await new Promise((resolve, reject) => {
    const timeout = setTimeout(() => reject(new Error('uPlot never drew')), 60000);
    onDraw = () => {
      clearTimeout(timeout);
      onDraw = null;
      resolve();
    };
    u = new uPlot(opts, data, el);
  });
  out.raster_ms.push(raster(u));
  out.first_ms = performance.now() - t0;
  performance.mark('uplot:first:end');
  performance.measure('uplot:first', 'uplot:first:start', 'uplot:first:end');

  for (let i = 0; i < REDRAWS; i++) {
    await nextFrame();
    const [, ms] = timed(`redraw:${i}`, () => {
      u.batch(() => u.setData(data));
      out.raster_ms.push(raster(u));
    });
    out.redraw_ms.push(ms);
  }
  for (let i = 0; i < TOGGLES; i++) {
    await nextFrame();
    // The second series is hidden on even steps and shown again on odd ones.
    const [, ms] = timed(`toggle:${i}`, () => {
      u.batch(() => u.setSeries(2, { show: i % 2 === 1 }));
      out.raster_ms.push(raster(u));
    });
    out.toggle_ms.push(ms);
  }
}

(async () => {
  const out = {
    library: 'uplot',
    points: POINTS,
    size: SIZE,
    device_pixel_ratio: window.devicePixelRatio,
    generate_ms: 0,
    first_ms: 0,
    redraw_ms: [],
    toggle_ms: [],
    raster_ms: [],
    nearest: null,
    checksum: 0,
    error: null,
  };
  try {
    await run(out);
  } catch (e) {
    out.error = String(e && e.stack ? e.stack : e);
  }
  document.getElementById('bench-results').textContent = JSON.stringify(out, null, 2);
  performance.mark('charts-ready');
})();
