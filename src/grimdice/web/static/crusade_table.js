// A Rules Crusade table (board.type: table) drawn as SVG from the replay's board (sent once) and a
// step's table marks: terrain pieces and buildings as their polygons in inches, shaded darker the
// higher they stand and labelled with their height, buildings' roofs, sectors (their hits left once
// damaged, rubble once collapsed), doors, ladders and stairs, deployment zones, forced entries.
import { el as svg } from "./charts.js";

const GROUND = "#f3f0e4", WALL = "#4d4d4d", RUBBLE = "#9e8c80";
const BLOCK = [140, 166, 115], BARRICADE = [125, 145, 170], BUILDING = [219, 189, 140], CATWALK = [115, 140, 178];
const CHAR = 0.17; // a label's character width in inches (its font is .3px)
const SECTOR_HITS = 10; // VI: "10 hits per sector"

/** A colour darkened with height, as `grimdice replay --png` shades the table. */
function shade([r, g, b], height) {
  const k = Math.max(0.35, 1 - 0.08 * height);
  return `rgb(${Math.round(r * k)}, ${Math.round(g * k)}, ${Math.round(b * k)})`;
}

const points = (shape) => shape.map(([x, y]) => `${x},${y}`).join(" ");

/** The middle of a polygon's corners, where its label goes. */
function middle(shape) {
  const n = shape.length;
  return [shape.reduce((s, p) => s + p[0], 0) / n, shape.reduce((s, p) => s + p[1], 0) / n];
}

function label(g, [x, y], text, cls) {
  g.append(svg("text", { x, y, class: `table-label ${cls}` }, text));
}

function drawPiece(g, p, wrecked) {
  // VI: a destroyed barricade leaves open ground; a destroyed catwalk lies on the ground as cover
  const down = p.target !== null && p.target !== undefined && wrecked.has(p.target);
  const colour = { barricade: BARRICADE, catwalk: CATWALK }[p.kind] || BLOCK;
  const fill = p.kind === "wall" ? WALL : down ? (p.kind === "catwalk" ? RUBBLE : GROUND) : shade(colour, p.height);
  const shapeEl = svg("polygon", { points: points(p.shape), fill,
    class: `piece ${p.kind}${p.rough ? " rough" : ""}${down ? " wrecked" : ""}` });
  const what = down ? "destroyed" : `${p.height}"${p.rough ? ", rough (scrabbled up)" : ""}`;
  shapeEl.append(svg("title", {}, `${p.name}: ${p.kind}, ${what}`));
  g.append(shapeEl);
  const named = `${p.name} ${p.height}"`, wide = Math.max(...p.shape.map((q) => q[0])) - Math.min(...p.shape.map((q) => q[0]));
  label(g, middle(p.shape), named.length * CHAR <= wide + 0.5 ? named : `${p.height}"`, "piece-name"); // the name on hover
}

function drawBuilding(g, b, marks) {
  const ruins = new Set(marks.ruins), hits = new Map(marks.sector_hits);
  const roof = shade(BUILDING, b.height);
  for (const s of b.sectors) {
    const down = ruins.has(s.index), left = hits.get(s.index);
    const poly = svg("polygon", { points: points(s.shape), fill: down ? RUBBLE : roof,
      class: `sector${down ? " rubble" : ""}`, "data-sector": s.index });
    poly.append(svg("title", {}, `${s.name}: ${down ? "rubble" : `${left ?? SECTOR_HITS} of ${SECTOR_HITS} hits left`}`));
    g.append(poly);
    const [x] = middle(s.shape), bottom = Math.max(...s.shape.map((p) => p[1]));
    const state = down ? "rubble" : left !== undefined ? `${left}/${SECTOR_HITS} hits` : "";
    if (b.sectors.length > 1) label(g, [x, bottom - 0.25], s.name, "sector-name");
    if (state) label(g, [x, bottom - 0.65], state, "sector-hits");
  }
  g.append(svg("polygon", { points: points(b.shape), fill: "none", class: "building-wall" }));
  for (const [x, y] of b.doors) g.append(svg("rect", { x: x + 0.25, y: y + 0.25, width: 0.5, height: 0.5, class: "door" }));
  if (b.hatch) {
    const [x, y] = b.hatch, hatch = svg("rect", { x: x + 0.3, y: y + 0.3, width: 0.4, height: 0.4, class: "hatch" });
    hatch.append(svg("title", {}, "roof hatch"));
    g.append(hatch);
  }
  const top = Math.min(...b.shape.map((p) => p[1])), [cx] = middle(b.shape);
  label(g, [cx, top + 0.45], `${b.name}: roof ${b.height}"${b.armoured ? ", armoured" : ""}`, "building-name");
}

function drawLink(g, ln) {
  const [a, b] = [ln.from, ln.to];
  const line = svg("line", { x1: a[0] + 0.5, y1: a[1] + 0.5, x2: b[0] + 0.5, y2: b[1] + 0.5, class: `link ${ln.kind}` });
  line.append(svg("title", {}, `${ln.kind} from ${a[2]}" to ${b[2]}"`));
  g.append(line);
  for (const p of [a, b]) g.append(svg("circle", { cx: p[0] + 0.5, cy: p[1] + 0.5, r: 0.12, class: `link-end ${ln.kind}` }));
  const [mx, my] = [(a[0] + b[0]) / 2 + 0.5, (a[1] + b[1]) / 2 + 0.5];
  label(g, [mx, my - 0.25], `${ln.kind} ${Math.abs(a[2] - b[2])}"`, "link-name");
}

/** The table of `board` (the replay's `board`) as it stands at `step` (its `table` marks). */
export function drawTable(board, step, colours, objectiveColour) {
  const marks = step.table || { ruins: [], sector_hits: [], breaches: [], wrecked: [] };
  const wrecked = new Set(marks.wrecked || []);
  const g = svg("g", { class: "table" });
  g.append(svg("rect", { x: 0, y: 0, width: board.width, height: board.height, fill: GROUND, class: "table-top" }));
  for (const z of board.zones) {
    const [x0, y0, x1, y1] = z.cells, colour = z.side === null || z.side === undefined ? "#777" : colours[z.side];
    g.append(svg("rect", { x: x0, y: y0, width: x1 - x0 + 1, height: y1 - y0 + 1, stroke: colour, fill: colour,
      "fill-opacity": 0.07, class: "zone" }));
    label(g, [x0 + (x1 - x0 + 1) / 2, y0 + 0.4], `zone ${z.name}`, "zone-name");
  }
  for (const p of board.pieces) drawPiece(g, p, wrecked);
  for (const b of board.buildings) drawBuilding(g, b, marks);
  for (const ln of board.links) drawLink(g, ln);
  for (const o of board.objectives) {
    const colour = o.side === null || o.side === undefined ? objectiveColour : colours[o.side];
    for (const [x, y] of o.kind === "item" ? o.to : [...o.squares, ...o.to]) {
      g.append(svg("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, fill: "none", stroke: colour, class: "objective" }));
    }
    const [x, y] = o.squares[0];
    g.append(svg("text", { x: x + 0.5, y: y + 0.24, class: "objective-name", fill: colour }, o.name));
  }
  for (const br of marks.breaches) { // VI FORCE ENTRY: "place a marker next to you"
    const [x, y] = br.at;
    const m = svg("path", { d: `M${x + 0.5},${y + 0.1} l.3,.4 -.3,.4 -.3,-.4 z`, class: "breach" });
    m.append(svg("title", {}, `forced entry into sector ${br.sector}`));
    g.append(m);
  }
  return g;
}

/** A model's height on the table beside its base (none on the ground). */
export function heightMark(m) {
  const z = m.at.length > 2 ? m.at[2] : 0;
  if (!z) return null;
  return svg("text", { x: m.at[0] + 0.12, y: m.at[1] + 0.3, class: "height" }, `${z}"`);
}
