// The Rules Crusade game in the browser: play a bundled or uploaded game scenario many times
// (POST /api/games/crusade/play, read game by game) and watch a logged game action by action
// (POST /api/games/crusade/replay) drawn as SVG: a grid's walls, doors, dark squares and ducts or a
// table's terrain and buildings (crusade_table.js), objectives, models in their force's colour with
// their names, moves and attacks as arrows (a volley's from every firer to every target), the dice's
// outcome, and the battle rules' marks: covered sections, reinforcement key points and arrivals, crews.
import { el as svg, pct } from "./charts.js";
import { drawTable, heightMark } from "./crusade_table.js";
import { h } from "./form.js";
import { ARMY, playGames, rateRow, replayed, stopGames, wireReplay } from "./games.js";

const $ = (sel) => document.querySelector(sel);
const SQUARE = { floor: "#ffffff", wall: "#4d4d4d", door: "#8c4d1a", duct: "#99b399" };
const DARK = "#c7ccdb", OPEN_DOOR = "#deb887", OBJECTIVE = "#b8860b";
const view = { game: null, step: 0, firstLog: null };

function say(text) { $("#crusade-status").textContent = text; }

async function readScenario() {
  const file = $("#crusade-file").files[0];
  if (!file) return $("#crusade-game").value;
  const res = await fetch("/api/parse", { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ text: await file.text() }) });
  const body = await res.json().catch(() => ({}));
  if (!res.ok) throw new Error(`${file.name}: ${body.message || body.error}`);
  return body.scenario;
}

function showSummary(s) {
  const [a, b] = s.forces;
  say(`${s.games} games played (seed ${s.seed}), ${s.mean_rounds.toFixed(1)} rounds on average`);
  const head = (...cols) => h("thead", {}, h("tr", {}, ...cols.map((c) => h("th", { scope: "col" }, c))));
  $("#crusade-summary").replaceChildren(
    h("div", { class: "table-wrap" }, h("table", {}, h("caption", {}, `${a} against ${b}`),
      head("result", "rate", "95% interval"),
      h("tbody", {}, rateRow(`${a} win`, s.force_a.win), rateRow("draw", s.force_a.draw), rateRow(`${b} win`, s.force_a.loss)))),
    h("div", { class: "table-wrap" }, h("table", {}, h("caption", {}, "each model (survival: still standing at the end)"),
      head("force", "model", "from", "survival", "mean kills"),
      h("tbody", {}, ...s.models.map((m) => h("tr", {}, h("td", {}, m.force), h("th", { scope: "row" }, m.model),
        h("td", {}, m.from), h("td", {}, pct(m.survival)), h("td", {}, m.mean_kills.toFixed(2))))))));
}

async function openLog(log) {
  const body = await replayed("/api/games/crusade/replay", log, say);
  if (!body) return;
  const start = { round: 0, text: "The forces deployed", arrow: null, ...body.start };
  view.game = { ...body, steps: [start, ...body.steps] };
  view.step = 0;
  $("#crusade-replay").hidden = false;
  $("#crusade-step").max = view.game.steps.length - 1;
  const end = body.winner ? `${body.winner} win` : "a draw";
  say(`Game replayed: ${body.steps.length} actions, ${body.rounds} rounds, ${end}; `
    + (body.matches_log ? "it matches its log" : `it does NOT match its log (${body.differs.join("; ")})`));
  draw();
}

function drawBoard(board, step) {
  const open = new Set(step.open_doors.map(String)), dark = new Set(board.dark.map(String));
  const g = svg("g");
  board.squares.forEach((row, y) => row.forEach((kind, x) => {
    let fill = SQUARE[kind];
    if (kind === "floor" && dark.has(`${x},${y}`)) fill = DARK;
    if (kind === "door" && open.has(`${x},${y}`)) fill = OPEN_DOOR;
    g.append(svg("rect", { x, y, width: 1, height: 1, fill, class: `sq ${kind}` }));
  }));
  for (const o of board.objectives) {
    const colour = o.side === null || o.side === undefined ? OBJECTIVE : ARMY[o.side];
    for (const [x, y] of o.kind === "item" ? o.to : [...o.squares, ...o.to]) {
      g.append(svg("rect", { x: x + 0.06, y: y + 0.06, width: 0.88, height: 0.88, fill: "none", stroke: colour,
        class: "objective" }));
    }
    const [x, y] = o.squares[0];
    g.append(svg("text", { x: x + 0.5, y: y + 0.24, class: "objective-name", fill: colour }, o.name));
  }
  for (const [a, b] of board.links) {
    g.append(svg("line", { x1: a[0] + 0.5, y1: a[1] + 0.5, x2: b[0] + 0.5, y2: b[1] + 0.5, class: "link" }));
    for (const [x, y] of [a, b]) g.append(svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.42, class: "manhole" }));
  }
  return g;
}

function drawModel(m) {
  const g = svg("g", { class: `model${m.active ? " active" : ""}` });
  const [x, y] = m.at, colour = ARMY[m.side];
  const [name, number] = m.name.split(" #");
  if (m.blip) {
    g.append(svg("rect", { x: x + 0.15, y: y + 0.15, width: 0.7, height: 0.7, fill: colour, class: "blip" }));
    g.append(svg("text", { x: x + 0.5, y: y + 0.62, class: "mark" }, `?${number}`));
  } else if (m.state === "killed") { // a face-down HORROR (IX) keeps its square
    g.append(svg("path", { d: `M${x + 0.25},${y + 0.25} l.5,.5 m0,-.5 l-.5,.5`, stroke: colour, class: "horror" }));
  } else {
    g.append(svg("circle", { cx: x + 0.5, cy: y + 0.5, r: 0.34, fill: colour, class: "base",
      "fill-opacity": m.state === "ko" ? 0.4 : 1 }));
    g.append(svg("text", { x: x + 0.5, y: y + 0.61, class: "mark" }, number));
    const mark = { stunned: "S", wounded: "W", ko: "KO" }[m.state];
    if (mark) g.append(svg("text", { x: x + 0.86, y: y + 0.3, class: "condition" }, mark));
  }
  // names alternate above and below the square, so that neighbours' names do not overlap
  const below = x % 2 === 1;
  g.append(svg("text", { x: x + 0.5, y: below ? y + 1.17 : y - 0.05, class: "model-name", fill: colour }, name));
  g.append(svg("title", {}, `${m.name}: ${m.state}`));
  return g;
}

function drawArrow(a, extra) {
  const dx = a.to[0] - a.from[0], dy = a.to[1] - a.from[1], len = Math.hypot(dx, dy) || 1;
  const cut = Math.min(0.38, len / 3); // from edge to edge of the squares' models, not over their numbers
  return svg("line", { x1: a.from[0] + 0.5 + (dx / len) * cut, y1: a.from[1] + 0.5 + (dy / len) * cut,
    x2: a.to[0] + 0.5 - (dx / len) * cut, y2: a.to[1] + 0.5 - (dy / len) * cut,
    class: `arrow ${a.kind}${extra ? ` ${extra}` : ""}`, stroke: ARMY[a.side], "marker-end": `url(#crusade-head-${a.side})` });
}

// The battle rules' marks under the models: sections still covered (hatched; their models are not
// on the board until uncovered), reinforcement key points (diamonds, hollow once the group has all
// come), and each artillery crew joined to its gun (solid while in the gun's cover, dashed when not).
function drawBattle(st) {
  const g = svg("g", { class: "battle" });
  for (const [x, y] of st.covered || []) {
    g.append(svg("rect", { x, y, width: 1, height: 1, fill: "url(#crusade-hatch)", class: "covered" }));
  }
  for (const k of st.key_points || []) {
    const [x, y] = k.at;
    const mark = svg("path", { d: `M${x + 0.5},${y + 0.08} L${x + 0.92},${y + 0.5} L${x + 0.5},${y + 0.92} L${x + 0.08},${y + 0.5} z`,
      stroke: ARMY[k.side], fill: k.coming ? ARMY[k.side] : "none", class: `key-point${k.coming ? " coming" : ""}` });
    mark.append(svg("title", {}, k.coming ? "reinforcements' key point" : "reinforcements' key point (all come)"));
    g.append(mark);
  }
  for (const c of st.crews || []) {
    g.append(svg("line", { x1: c.from[0] + 0.5, y1: c.from[1] + 0.5, x2: c.to[0] + 0.5, y2: c.to[1] + 0.5,
      class: `crew${c.cover ? " cover" : ""}` }));
  }
  return g;
}

function draw() {
  const game = view.game, st = game.steps[view.step], b = game.board;
  const table = b.type === "table";
  const board = svg("svg", { viewBox: `-0.2 -0.4 ${b.width + 0.4} ${b.height + 0.8}`, role: "img",
    class: `board grid${table ? " table" : ""}`,
    "aria-label": `The ${table ? "table" : "board"} after action ${view.step} of ${game.steps.length - 1}: round ${st.round}` });
  board.style.minWidth = `${Math.min(2 * b.width, 60)}rem`; // names readable: a phone scrolls the board
  const defs = svg("defs");
  for (const [i, colour] of ARMY.entries()) {
    const head = svg("marker", { id: `crusade-head-${i}`, viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 4,
      markerHeight: 4, orient: "auto" });
    head.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: colour }));
    defs.append(head);
  }
  const hatch = svg("pattern", { id: "crusade-hatch", width: 0.25, height: 0.25, patternUnits: "userSpaceOnUse",
    patternTransform: "rotate(45)" });
  hatch.append(svg("rect", { width: 0.25, height: 0.25, class: "covered-ground" }),
    svg("line", { x1: 0, y1: 0, x2: 0, y2: 0.25, class: "covered-line" }));
  defs.append(hatch);
  board.append(defs, table ? drawTable(b, st, ARMY, OBJECTIVE) : drawBoard(b, st), drawBattle(st));
  const arrived = new Set(st.arrived || []), crew = new Set((st.crews || []).filter((c) => c.cover).map((c) => c.crew));
  for (const [i, m] of st.models.entries()) {
    if (!m.on_board) continue;
    const g = drawModel(m), up = table && heightMark(m);
    if (up) g.append(up);
    if (arrived.has(i)) { // X: a reinforcement or a model of a section just uncovered
      g.prepend(svg("circle", { cx: m.at[0] + 0.5, cy: m.at[1] + 0.5, r: 0.46, class: "arrived" }));
    }
    if (crew.has(i)) g.append(svg("text", { x: m.at[0] + 0.14, y: m.at[1] + 0.3, class: "crew-mark" }, "c"));
    board.append(g);
  }
  for (const [x, y] of st.items || []) {
    board.append(svg("path", { d: `M${x + 0.8},${y + 0.06} l.07,.14 .15,.02 -.11,.1 .03,.15 -.14,-.07 -.14,.07 .03,-.15 -.11,-.1 .15,-.02 z`,
      class: "item" }, undefined));
  }
  if (st.arrows && st.arrows.length) { // IX VOLLEY FIRE: every firer at every target
    for (const a of st.arrows) board.append(drawArrow(a, "volley"));
  } else if (st.arrow) board.append(drawArrow(st.arrow, ""));
  $("#crusade-board").replaceChildren(board);
  $("#crusade-step").value = view.step;
  const who = st.chance ? "dice" : b.forces[st.side];
  $("#crusade-what").textContent = view.step === 0 ? `Round 0: ${st.text}`
    : `Action ${view.step} of ${game.steps.length - 1}, round ${st.round} (${who}): ${st.text}`;
}

/** Wire the "Games (Rules Crusade)" section; `games` are the bundled scenarios (GET /api/games/crusade). */
export function setupCrusade(games) {
  if (!games.length) { $("#crusade").hidden = true; return; }
  $("#crusade-game").replaceChildren(...games.map((g) => h("option", { value: g.file, title: g.title },
    `${g.forces.join(" against ")}: ${g.title.split(":")[0]}`)));
  $("#crusade-play").addEventListener("click", () => playGames("crusade", "/api/games/crusade/play",
    async () => ({ scenario: await readScenario() }),
    (line) => { showSummary(line.summary); view.firstLog = line.log; $("#crusade-watch").hidden = false; }));
  $("#crusade-cancel").addEventListener("click", () => stopGames("crusade"));
  wireReplay({ watch: "#crusade-watch", log: "#crusade-log", back: "#crusade-back", next: "#crusade-next",
    roundBack: "#crusade-round-back", roundNext: "#crusade-round-next", step: "#crusade-step", board: "#crusade-board" },
    view, draw, openLog, say, "crusade");
}
