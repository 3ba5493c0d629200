// Games in the browser: play a matchup (POST /api/games/play, read game by game) and watch a logged
// game step by step (POST /api/games/replay) drawn as SVG: terrain, bases, unit names, arrows.
import { el as svg, pct } from "./charts.js";
import { h } from "./form.js";

const $ = (sel) => document.querySelector(sel);
export const ARMY = ["#0072b2", "#c84b00"];
const TERRAIN = { impassable: "#8a8a8a", blocks_sight: "#b9855a", cover: "#6fae6f", dangerous: "#f0a040", difficult: "#b8b860" };
const view = { game: null, step: 0 };

async function readArmy(side) {
  const file = $(`#game-file-${side}`).files[0];
  if (file) {
    const res = await fetch("/api/parse", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: await file.text() }) });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) throw new Error(`${file.name}: ${body.message || body.error}`);
    return body.scenario;
  }
  return $(`#game-army-${side}`).value;
}

/** Read a JSON-lines answer (a stream of games) line by line as it arrives. */
async function readLines(res, onLine) {
  const reader = res.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) return;
    buffer += value;
    let nl;
    while ((nl = buffer.indexOf("\n")) >= 0) {
      onLine(JSON.parse(buffer.slice(0, nl)));
      buffer = buffer.slice(nl + 1);
    }
  }
}

function say(text) { $("#game-status").textContent = text; }

const running = {}; // each section's running play request (its AbortController), by id prefix

/** Play games from the section whose ids start with `prefix` (its -count, -seed, -progress, -cancel,
 * -summary and -status): POST `url` with `await request()` and the count and seed, read game by game
 * (a new play supersedes the running one); `done(line)` gets the last line (the summary and a log). */
export async function playGames(prefix, url, request, done) {
  const say = (text) => { $(`#${prefix}-status`).textContent = text; };
  stopGames(prefix);
  const controller = new AbortController();
  running[prefix] = controller;
  const games = Number($(`#${prefix}-count`).value);
  const seed = Number($(`#${prefix}-seed`).value || 0);
  let body;
  try { body = { ...(await request()), games, seed }; } catch (e) { say(e.message); return; }
  const bar = $(`#${prefix}-progress`);
  Object.assign(bar, { max: games, value: 0, hidden: false });
  $(`#${prefix}-cancel`).hidden = false;
  $(`#${prefix}-summary`).replaceChildren();
  say(`Playing ${games} games…`);
  try {
    const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body), signal: controller.signal });
    if (!res.ok) { const b = await res.json().catch(() => ({})); say(b.message || b.error || `HTTP ${res.status}`); return; }
    await readLines(res, (line) => {
      if (line.done) { bar.value = line.done; say(`Played ${line.done} of ${line.of} games`); }
      if (line.summary) done(line);
    });
  } catch (e) {
    say(e.name === "AbortError" ? "Stopped" : `Error: ${e.message}`);
  } finally {
    if (running[prefix] === controller) running[prefix] = null;
    bar.hidden = true;
    $(`#${prefix}-cancel`).hidden = true;
  }
}

/** Stop the section's running play request, if any. */
export function stopGames(prefix) { if (running[prefix]) running[prefix].abort(); }

/** A table row: a result, its rate and its 95 % interval. */
export function rateRow(what, r) {
  return h("tr", {}, h("th", { scope: "row" }, what), h("td", {}, pct(r.rate)), h("td", {}, `${pct(r.low)} – ${pct(r.high)}`));
}

function showSummary(s) {
  const a = s.army_a;
  const row = rateRow;
  say(`${s.games} games played (seed ${s.seed})`);
  $("#game-summary").replaceChildren(
    h("div", { class: "table-wrap" }, h("table", {}, h("caption", {}, `${s.armies[0]} against ${s.armies[1]}`),
      h("thead", {}, h("tr", {}, ...["result", "rate", "95% interval"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, row(`${s.armies[0]} wins`, a.win), row("draw", a.draw), row(`${s.armies[1]} wins`, a.loss)))),
    h("p", {}, `mean scores ${s.mean_scores[0].toFixed(1)} – ${s.mean_scores[1].toFixed(1)}`),
    h("div", { class: "table-wrap" }, h("table", {}, h("caption", {}, "each unit"),
      h("thead", {}, h("tr", {}, ...["army", "unit", "pts", "survived", "models left", "pts killed"].map((c) => h("th", { scope: "col" }, c)))),
      h("tbody", {}, ...s.units.map((u) => h("tr", {}, h("td", {}, s.armies[u.army]), h("th", { scope: "row" }, u.unit),
        h("td", {}, String(u.cost)), h("td", {}, pct(u.survival)), h("td", {}, u.mean_models_left.toFixed(1)),
        h("td", {}, u.mean_points_killed.toFixed(1))))))));
}

/** The frames of `log` replayed by `url` (POST {log}), or null after saying why it could not be. */
export async function replayed(url, log, say) {
  say("Replaying the game…");
  const res = await fetch(url, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify({ log }) });
  const body = await res.json().catch(() => ({}));
  if (res.ok) return body;
  say(`This log could not be replayed: ${body.message || body.error || res.status}`);
  return null;
}

async function openLog(log) {
  const body = await replayed("/api/games/replay", log, say);
  if (!body) return;
  view.game = body;
  view.step = 0;
  $("#replay").hidden = false;
  $("#replay-step").max = body.steps.length - 1;
  say(`Game replayed: ${body.steps.length} steps; ${body.matches_log ? "it matches its log" : "it does NOT match its log"}`);
  draw();
}

/** What a step's record says, in words. */
export function describe(ev, units) {
  const name = (i) => (units[i] ? units[i].name : `unit ${i}`);
  const act = Array.isArray(ev.action) ? ev.action : [];
  if (ev.phase === "combat") {
    const [before, after] = ev.models || [];
    const verb = { shoot: "shoots", melee: "fights", dangerous: "tests dangerous terrain:" }[ev.kind] || ev.kind;
    const whom = ev.kind === "dangerous" ? "" : ` ${name(ev.target)}`;
    return `${name(ev.unit)} ${verb}${whom}: ${before} → ${after} models${ev.pinned ? ", pinned" : ""}`;
  }
  if (ev.phase === "play") {
    const what = { walk: "walks", run: "runs", hold: "holds", assault: `assaults ${name(act[2])}` }[act[0]] || act[0];
    return `${ev.unit || name(act[1])} ${what}`;
  }
  if (ev.phase === "shoot") {
    return act[1] >= 0 ? `army ${ev.player + 1} picks a target: ${name(act[1])}` : `army ${ev.player + 1} takes no shot`;
  }
  if (ev.phase === "deploy" || ev.phase === "scout") {
    const who = `army ${ev.player + 1}`;
    if (act[0] === "reserve") return `${who} keeps ${name(act[1])} in reserve (Deep Strike)`;
    if (act[0] === "embark") return `${who} embarks ${name(act[1])} in ${name(act[2])}`;
    if (act[0] === "place" || act[0] === "scout") return `${who} places ${name(act[1])}`;
    return `${who} deploys ${name(act[1])}`;
  }
  return `${ev.phase}${act.length ? ": " + act.join(" ") : ""}`;
}

function draw() {
  const g = view.game;
  const st = g.steps[view.step];
  const W = g.table.width, D = g.table.depth;
  const Y = (y) => D - y; // the table's y runs up, the SVG's down
  const board = svg("svg", { viewBox: `-1 -1 ${W + 2} ${D + 2}`, role: "img", class: "board",
    "aria-label": `The table after step ${view.step + 1}: round ${st.round}` });
  board.append(svg("rect", { x: 0, y: 0, width: W, height: D, class: "table-top" }));
  for (const t of g.table.terrain) {
    const trait = (t.traits || []).find((k) => k in TERRAIN);
    board.append(svg("polygon", { points: t.shape.map(([x, y]) => `${x},${Y(y)}`).join(" "), fill: TERRAIN[trait] || "#d9cf9a",
      "fill-opacity": 0.6 }, undefined));
    const cx = t.shape.reduce((s, p) => s + p[0], 0) / t.shape.length, cy = t.shape.reduce((s, p) => s + p[1], 0) / t.shape.length;
    board.append(svg("text", { x: cx, y: Y(cy), class: "terrain-name" }, t.name));
  }
  st.units.forEach((u, i) => {
    if (!u.models.length) return;
    const meta = g.units[i];
    for (const [x, y] of u.models) board.append(svg("circle", { cx: x, cy: Y(y), r: meta.radius, fill: ARMY[meta.army], class: "base" }));
    const mx = u.models.reduce((s, p) => s + p[0], 0) / u.models.length, my = Math.max(...u.models.map((p) => p[1]));
    board.append(svg("text", { x: mx, y: Y(my) - meta.radius - 0.4, class: "unit-name", fill: ARMY[meta.army] },
      meta.name + (u.pinned ? " (pinned)" : "")));
  });
  if (st.arrow) {
    const a = st.arrow;
    const points = [a.from, ...(a.via ? [a.via] : []), a.to].map(([x, y]) => `${x},${Y(y)}`).join(" "); // two legs bend at the waypoint
    board.append(svg("polyline", { points, fill: "none", class: `arrow ${a.kind}${a.via ? " two-legs" : ""}`,
      stroke: a.kind === "shot" ? ARMY[a.army] : "#222", "marker-end": "url(#head)" }));
  }
  const defs = svg("defs");
  const head = svg("marker", { id: "head", viewBox: "0 0 10 10", refX: 9, refY: 5, markerWidth: 5, markerHeight: 5, orient: "auto" });
  head.append(svg("path", { d: "M0,0 L10,5 L0,10 z", fill: "#222" }));
  defs.append(head);
  board.prepend(defs);
  $("#board").replaceChildren(board);
  $("#replay-step").value = view.step;
  $("#replay-what").textContent = `Step ${view.step + 1} of ${g.steps.length}, round ${st.round}: ${describe(st.event, g.units)}`;
  $("#replay-score").textContent = `Scores: ${g.armies[0] || "army 1"} ${st.scores[0]} – ${st.scores[1]} ${g.armies[1] || "army 2"}`;
}

const viewers = {}; // each game's log viewer, by the system a log names: {open(log), board}

/** Wire a replay's controls (element ids in `ids`): watch the first game played, open a log file
 * (`openLog(log)`, or the viewer of the game the log names), step back and forward, to the start of a round, the slider, and the arrow keys on
 * the board; `view` holds the `game` (its `steps`, each with its `round`), the `step` shown and the
 * `firstLog`; `draw()` shows `view.step`. */
export function wireReplay(ids, view, draw, openLog, say, system) {
  viewers[system] = { open: openLog, board: ids.board };
  const go = (step) => {
    if (!view.game) return;
    view.step = Math.max(0, Math.min(view.game.steps.length - 1, step));
    draw();
  };
  const roundStart = (dir) => {
    if (!view.game) return;
    const s = view.game.steps;
    const i = s.findIndex((x) => x.round === s[view.step].round + dir);
    go(i >= 0 ? i : dir > 0 ? s.length - 1 : 0);
  };
  $(ids.watch).addEventListener("click", () => view.firstLog && openLog(view.firstLog));
  $(ids.log).addEventListener("change", async (e) => {
    const file = e.target.files[0];
    if (!file) return;
    let log;
    try { log = JSON.parse(await file.text()); } catch (err) { say(`${file.name} is not a game log: ${err.message}`); return; }
    const other = log && viewers[log.system];
    if (!other || other.open === openLog) { await openLog(log); return; }
    await other.open(log); // another game's log: shown in that game's section
    $(other.board).scrollIntoView({ block: "center" });
  });
  $(ids.back).addEventListener("click", () => go(view.step - 1));
  $(ids.next).addEventListener("click", () => go(view.step + 1));
  $(ids.roundBack).addEventListener("click", () => roundStart(-1));
  $(ids.roundNext).addEventListener("click", () => roundStart(1));
  $(ids.step).addEventListener("input", (e) => go(Number(e.target.value)));
  $(ids.board).addEventListener("keydown", (e) => {
    if (e.key === "ArrowRight") { e.preventDefault(); go(view.step + 1); }
    if (e.key === "ArrowLeft") { e.preventDefault(); go(view.step - 1); }
  });
}

/** Wire the "Games" section; `armies` are the bundled ones (GET /api/games/armies). */
export function setupGames(armies) {
  if (!armies.length) { $("#games").hidden = true; return; }
  for (const [side, pick] of [["a", 0], ["b", 1]]) {
    $(`#game-army-${side}`).replaceChildren(...armies.map((a) => h("option", { value: a.file }, `${a.name} (${a.points} pts)`)));
    $(`#game-army-${side}`).value = armies[Math.min(pick, armies.length - 1)].file;
  }
  $("#game-play").addEventListener("click", () => playGames("game", "/api/games/play",
    async () => ({ armies: [await readArmy("a"), await readArmy("b")] }),
    (line) => { showSummary(line.summary); view.firstLog = line.log; $("#watch-first").hidden = false; }));
  $("#game-cancel").addEventListener("click", () => stopGames("game"));
  wireReplay({ watch: "#watch-first", log: "#game-log", back: "#replay-back", next: "#replay-next",
    roundBack: "#replay-round-back", roundNext: "#replay-round-next", step: "#replay-step", board: "#board" },
    view, draw, openLog, say, "onepage");
}
