// Inline SVG charts: a bar chart of a distribution and "at least N" / pmf line charts.
const NS = "http://www.w3.org/2000/svg";
export const COLORS = ["#0072b2", "#c84b00", "#007a5a", "#a8457f"];
const TAIL = 5e-5; // counts are drawn while the remaining mass is at least this

/** An SVG element with attributes (and text). */
export function el(name, attrs = {}, text) {
  const e = document.createElementNS(NS, name);
  for (const [k, v] of Object.entries(attrs)) e.setAttribute(k, v);
  if (text !== undefined) e.textContent = text;
  return e;
}

/** The highest count worth drawing: beyond it less than TAIL of the mass remains. */
export function lastShown(pmf) {
  let rest = 0;
  for (let k = pmf.length - 1; k >= 0; k--) {
    rest += pmf[k];
    if (rest >= TAIL) return k;
  }
  return 0;
}

export function atLeast(pmf) {
  const out = new Array(pmf.length).fill(0);
  let acc = 0;
  for (let k = pmf.length - 1; k >= 0; k--) { acc += pmf[k]; out[k] = Math.min(1, acc); }
  return out;
}

export function pct(p) {
  if (p === 0) return "0%";
  if (p < 0.0001) return "<0.01%";
  if (p > 0.9999 && p < 1 - 1e-12) return ">99.99%"; // not certain: never shown as 100%
  return (100 * p).toFixed(p >= 0.1 && p <= 0.999 ? 1 : 2).replace(/^100\.00$/, "100.0") + "%";
}

function nice(raw, steps = [1, 2, 2.5, 5, 10]) {
  const mag = 10 ** Math.floor(Math.log10(raw));
  for (const m of steps) if (m * mag >= raw - 1e-12) return m * mag;
  return 10 * mag;
}

/** Whole-number tick steps on a count axis. */
function niceStep(span, count) { return Math.max(1, nice(span / Math.max(1, count), [1, 2, 5, 10])); }

/** The top of a probability axis: four nice steps covering `top`. */
function niceTop(top) { return 4 * nice(Math.max(top, 1e-9) / 4); }

const CHAR = 7; // px: a generous width of one 11 px character of a tick label
const TITLE = 18; // px: the band left of the tick labels that holds the rotated axis title

/** The left margin: the axis title's band plus the widest tick label, so the two never overlap. */
function leftMargin(ymax, percent) {
  let widest = 0;
  for (let i = 0; i <= 4; i++) widest = Math.max(widest, (percent ? pct((ymax * i) / 4) : ((ymax * i) / 4).toFixed(2)).length);
  return TITLE + 6 + widest * CHAR;
}

function frame(svg, { W, H, R, T, B, xmax, ymax, xlabel, ylabel, percent, shift = 0 }) {
  const L = leftMargin(ymax, percent);
  const x = (v) => L + (v / Math.max(xmax, 1)) * (W - L - R);
  const y = (v) => H - B - (v / ymax) * (H - T - B);
  for (let i = 0; i <= 4; i++) {
    const v = (ymax * i) / 4;
    svg.append(el("line", { x1: L, x2: W - R, y1: y(v), y2: y(v), class: "gridline" }));
    svg.append(el("text", { x: L - 4, y: y(v) + 4, "text-anchor": "end", class: "tick" }, percent ? pct(v) : v.toFixed(2)));
  }
  const last = xmax - 2 * shift; // bars: count k is drawn centred at k + 0.5
  const step = niceStep(last, 10);
  for (let v = 0; v <= last; v += step) {
    svg.append(el("text", { x: x(v + shift), y: H - B + 14, "text-anchor": "middle", class: "tick" }, String(v)));
  }
  svg.append(el("line", { x1: L, x2: W - R, y1: H - B, y2: H - B, class: "axis" }));
  svg.append(el("line", { x1: L, x2: L, y1: T, y2: H - B, class: "axis" }));
  svg.append(el("text", { x: (L + W - R) / 2, y: H - 4, "text-anchor": "middle", class: "axis-title" }, xlabel));
  const mid = T + (H - T - B) / 2;
  svg.append(el("text", { x: TITLE - 4, y: mid, transform: `rotate(-90 ${TITLE - 4} ${mid})`,
    "text-anchor": "middle", class: "axis-title" }, ylabel));
  return { x, y, L };
}

/** A bar chart of P(X = k). */
export function barChart(pmf, { label = "count", height = 220, color = COLORS[0], width = 560 } = {}) {
  const n = lastShown(pmf);
  const W = width, H = height, R = 10, T = 10, B = 34;
  const ymax = niceTop(Math.max(...pmf.slice(0, n + 1)));
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img",
    "aria-label": `${label}: probability of each count from 0 to ${n}` });
  const { x, y, L } = frame(svg, { W, H, R, T, B, xmax: n + 1, ymax, xlabel: label, ylabel: "P(exactly)",
    percent: true, shift: 0.5 });
  const bw = Math.max(1, ((W - L - R) / (n + 1)) * 0.8);
  for (let k = 0; k <= n; k++) {
    const bar = el("rect", { x: x(k + 0.5) - bw / 2, y: y(pmf[k]), width: bw, height: Math.max(0, y(0) - y(pmf[k])),
      fill: color, class: "bar" });
    bar.append(el("title", {}, `${k}: ${pct(pmf[k])}`));
    svg.append(bar);
  }
  return svg;
}

/** Step lines of several series: [{label, color, values}] (values indexed by count). */
export function lineChart(series, { xlabel = "N", ylabel = "P(at least N)", height = 240, width = 560 } = {}) {
  const n = Math.max(1, ...series.map((s) => s.last ?? s.values.length - 1));
  const W = width, H = height, R = 10, T = 10, B = 34;
  const ymax = niceTop(Math.max(...series.flatMap((s) => s.values.slice(0, n + 1))));
  const svg = el("svg", { viewBox: `0 0 ${W} ${H}`, role: "img", "aria-label": `${ylabel} by ${xlabel}` });
  const { x, y } = frame(svg, { W, H, R, T, B, xmax: n, ymax, xlabel, ylabel, percent: true });
  series.forEach((s, i) => {
    const pts = [];
    for (let k = 0; k <= n; k++) pts.push(`${x(k)},${y(s.values[k] ?? 0)}`);
    svg.append(el("polyline", { points: pts.join(" "), fill: "none", stroke: s.color, "stroke-width": 2.5,
      "stroke-dasharray": i % 2 ? "6 3" : "none", class: "series" }));
    for (let k = 0; k <= n; k++) {
      const dot = el("circle", { cx: x(k), cy: y(s.values[k] ?? 0), r: n > 60 ? 1.5 : 3, fill: s.color });
      dot.append(el("title", {}, `${s.label}: ${k} → ${pct(s.values[k] ?? 0)}`));
      svg.append(dot);
    }
  });
  return svg;
}
