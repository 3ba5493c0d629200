// Army lists: upload two rosters, pick an attacker and a defender unit, or run every unit against
// every unit (a heat-map of damage per 100 points), each cell one exact POST /api/calculate.
import { pct } from "./charts.js";
import { h } from "./form.js";

const $ = (sel) => document.querySelector(sel);
const MAX_CELLS = 225; // 15 x 15 units
const rosters = { attacker: null, defender: null };
let matrixRun = null; // {stop: true} to stop a running matrix
let lastMatrix = null; // [cells, attackers, defenders]: the metric selector redraws it

async function post(path, body, signal) {
  const res = await fetch(path, { method: "POST", headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body), signal });
  const data = await res.json().catch(() => ({ error: `HTTP ${res.status}` }));
  return { ok: res.ok, data };
}

function base64(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s);
}

function say(text) { $("#army-status").textContent = text; }

async function upload(side, file) {
  if (!file) return;
  if (file.size > 250_000) { say(`${file.name} is larger than 250 000 bytes`); return; }
  say(`Reading ${file.name}…`);
  const res = await post("/api/rosters", { name: file.name, data: base64(new Uint8Array(await file.arrayBuffer())) });
  if (!res.ok) { rosters[side] = null; say(`${file.name}: ${res.data.message || res.data.error}`); showUnits(side); return; }
  rosters[side] = res.data;
  say(`${file.name}: ${res.data.name} (${res.data.game}, ${res.data.points} pts, ${res.data.units.length} units)`);
  showUnits(side);
}

function showUnits(side) {
  const r = rosters[side];
  const sel = $(`#${side}-unit`);
  sel.replaceChildren(...(r ? r.units.map((u) => h("option", { value: u.ref },
    `${u.ref} (${u.models} model${u.models === 1 ? "" : "s"}${u.points ? `, ${u.points} pts` : ""})`)) : []));
  sel.disabled = !r;
  const ready = rosters.attacker && rosters.defender;
  $("#army-pair").disabled = !ready;
  $("#army-matrix").disabled = !ready;
}

const unitOf = (side, ref) => rosters[side].units.find((u) => u.ref === ref);

function pairBody(aRef, dRef) {
  const weapons = $("#army-weapons").value || null;
  return { attacker: { roster: rosters.attacker.id, unit: aRef }, defender: { roster: rosters.defender.id, unit: dRef }, weapons };
}

/** Damage per 100 points of the attacker (null where the list gives it no points). */
export function per100(damage, points) { return points > 0 ? (100 * damage) / points : null; }

async function loadPair(show) {
  const aRef = $("#attacker-unit").value, dRef = $("#defender-unit").value;
  const res = await post("/api/rosters/scenario", pairBody(aRef, dRef));
  if (!res.ok) { say(res.data.message || res.data.error); return; }
  const notes = res.data.notes || [];
  $("#army-notes").replaceChildren(...notes.map((n) => h("li", {}, n)));
  $("#army-notes-box").hidden = notes.length === 0;
  const data = await show(res.data.scenario);
  const pts = unitOf("attacker", aRef).points;
  if (data && data.damage) {
    const each = per100(data.damage.mean, pts);
    say(`${aRef} into ${dRef}: ${data.damage.mean.toFixed(2)} damage` + (each === null ? " (no points in the list)" : `, ${each.toFixed(2)} per 100 points`));
  }
}

/** A cell's colour: white (none) to the page's blue (the most in the matrix). */
function heat(v, top) {
  const t = top > 0 && v !== null ? Math.min(1, v / top) : 0;
  const mix = (a, b) => Math.round(a + (b - a) * t);
  return { bg: `rgb(${mix(255, 11)}, ${mix(255, 92)}, ${mix(255, 173)})`, fg: t > 0.55 ? "#fff" : "#1a1a1a" };
}

const METRICS = {
  per100: { label: "damage per 100 points", value: (c) => c.per100, show: (v) => v.toFixed(2) },
  damage: { label: "expected damage", value: (c) => c.damage, show: (v) => v.toFixed(2) },
  slain: { label: "expected models slain", value: (c) => c.slain, show: (v) => v.toFixed(2) },
  wipe: { label: "chance to destroy the unit", value: (c) => c.wipe, show: (v) => pct(v) },
};

function drawMatrix(cells, attackers, defenders) {
  lastMatrix = [cells, attackers, defenders];
  const metric = METRICS[$("#matrix-metric").value] || METRICS.per100;
  const values = cells.flat().filter((c) => c && !c.error).map(metric.value).filter((v) => v !== null);
  const top = values.length ? Math.max(...values) : 0;
  const head = h("tr", {}, h("th", { scope: "col" }, "attacker ↓ / defender →"), ...defenders.map((d) => h("th", { scope: "col" }, d.ref)));
  const rows = attackers.map((a, i) => h("tr", {}, h("th", { scope: "row" }, a.points ? `${a.ref} (${a.points} pts)` : a.ref),
    ...defenders.map((d, j) => {
      const c = cells[i][j];
      if (!c) return h("td", { class: "pending" }, "…");
      if (c.error) return h("td", { class: "refused", title: c.error }, "—");
      const v = metric.value(c);
      const td = h("td", { title: `${a.ref} into ${d.ref}: ${c.damage.toFixed(3)} damage, ${c.slain.toFixed(3)} models slain, ${pct(c.wipe)} to destroy it` },
        v === null ? "n/a" : metric.show(v));
      const { bg, fg } = heat(v, top);
      td.style.background = bg; // CSSOM: allowed by the page's Content-Security-Policy
      td.style.color = fg;
      return td;
    })));
  $("#matrix").replaceChildren(h("div", { class: "table-wrap" }, h("table", { class: "heat" },
    h("caption", {}, `${metric.label}: each attacker unit (row) against each defender unit (column); darker is more`),
    h("thead", {}, head), h("tbody", {}, ...rows))));
}

async function runMatrix() {
  const attackers = rosters.attacker.units, defenders = rosters.defender.units;
  const total = attackers.length * defenders.length;
  if (total > MAX_CELLS) { say(`at most ${MAX_CELLS} pairs; these lists make ${total}`); return; }
  if (matrixRun) matrixRun.stop = true;
  const run = { stop: false, controller: new AbortController() };
  matrixRun = run;
  const cells = attackers.map(() => defenders.map(() => null));
  $("#matrix-progress").max = total;
  $("#matrix-progress").value = 0;
  $("#matrix-progress").hidden = false;
  $("#matrix-stop").hidden = false;
  drawMatrix(cells, attackers, defenders);
  let n = 0;
  for (let i = 0; i < attackers.length; i++) {
    for (let j = 0; j < defenders.length; j++) {
      if (run.stop) break;
      cells[i][j] = await cell(attackers[i], defenders[j], run.controller.signal);
      n += 1;
      $("#matrix-progress").value = n;
      say(`Matrix: ${n} of ${total} pairs`);
      drawMatrix(cells, attackers, defenders);
    }
  }
  $("#matrix-stop").hidden = true;
  $("#matrix-progress").hidden = true;
  if (matrixRun === run) matrixRun = null;
  say(run.stop ? `Matrix stopped after ${n} of ${total} pairs` : `Matrix done: ${total} pairs`);
}

async function cell(a, d, signal) {
  try {
    const sc = await post("/api/rosters/scenario", pairBody(a.ref, d.ref), signal);
    if (!sc.ok) return { error: sc.data.message || sc.data.error };
    const res = await post("/api/calculate", { scenario: sc.data.scenario, simulate: null, seed: null }, signal);
    if (!res.ok) return { error: res.data.message || res.data.error };
    const dead = res.data.models_destroyed;
    const wipe = dead.pmf.slice(d.models).reduce((x, y) => x + y, 0);
    return { damage: res.data.damage.mean, slain: dead.mean, wipe, per100: per100(res.data.damage.mean, a.points) };
  } catch (e) {
    return { error: e.name === "AbortError" ? "stopped" : e.message };
  }
}

/** Wire the "Army lists" box; `show(scenario)` loads a scenario, calculates it and returns the result. */
export function setupArmies(show) {
  for (const side of ["attacker", "defender"]) {
    $(`#${side}-roster`).addEventListener("change", (e) => upload(side, e.target.files[0]));
    showUnits(side);
  }
  $("#army-pair").addEventListener("click", () => loadPair(show));
  $("#army-matrix").addEventListener("click", runMatrix);
  $("#matrix-stop").addEventListener("click", () => { if (matrixRun) { matrixRun.stop = true; matrixRun.controller.abort(); } });
  $("#matrix-metric").addEventListener("change", () => { if (lastMatrix) drawMatrix(...lastMatrix); });
}
