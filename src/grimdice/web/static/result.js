// A result at a glance: the headline, the stage table, "at least / at most N", named outcomes,
// readable policies and collapsed notes. Everything is read from the result JSON (Result.to_json).
import { atLeast, pct } from "./charts.js";
import { h, words } from "./form.js";

/** Stages whose counts are codes of named outcomes (the code is the index). */
export const CATEGORIES = { winner: ["a draw", "the attacker", "the defender"] };

/** The result's stages: [name, {mean, pmf}] in the result's order. */
export function stagesOf(result) {
  return Object.entries(result).filter(([, v]) => v && typeof v === "object" && Array.isArray(v.pmf) && "mean" in v);
}

export function stats(pmf) {
  let m = 0, m2 = 0;
  pmf.forEach((p, k) => { m += p * k; m2 += p * k * k; });
  return { mean: m, sd: Math.sqrt(Math.max(0, m2 - m * m)) };
}

/** The highest count with a chance above zero: the true maximum (what `grimdice calc` prints). */
export function highest(pmf) {
  for (let k = pmf.length - 1; k > 0; k--) if (pmf[k] > 0) return k;
  return 0;
}

/** The number of models the scenario's defender fields (its `models` and `leaders` lists, with
 * counts), or null where the scenario has no such lists. */
export function defenderModels(scenario) {
  const d = scenario && scenario.defender;
  if (!d || !Array.isArray(d.models)) return null;
  const lists = [d.models, Array.isArray(d.leaders) ? d.leaders : []];
  return lists.flat().reduce((n, m) => n + (Number.isInteger(m && m.count) ? m.count : 1), 0);
}

function fact(label, value, detail) {
  return h("div", { class: "fact" }, h("span", { class: "fact-value" }, value), h("span", { class: "fact-label" }, label),
    detail ? h("span", { class: "fact-detail" }, detail) : null);
}

const chanceOf = (st) => (st ? 1 - (st.pmf[0] ?? 0) : null);

/** The headline: the few numbers a player asks for first. */
export function headline(view, scenario) {
  const facts = [];
  const dead = view.models_destroyed;
  const size = defenderModels(scenario);
  const dies = (side) => view[`p_${side}_incapacitated`] ?? chanceOf(view[`${side}_destroyed`]);
  const fight = typeof dies("attacker") === "number";
  if (fight) {
    for (const side of ["attacker", "defender"]) {
      if (typeof dies(side) === "number") facts.push(fact(`chance the ${side} is destroyed`, pct(dies(side))));
    }
  } else if (view.destroyed) facts.push(fact("chance to destroy the unit", pct(chanceOf(view.destroyed))));
  // the count read from the scenario is trusted only where the result never slays more
  else if (dead && size && highest(dead.pmf) <= size) facts.push(fact(`chance to slay all ${size} models`, pct(dead.pmf[size] ?? 0)));
  const end = view.end_state;
  if (!fight && end && typeof end.killed === "number") facts.push(fact("chance to kill the target", pct(end.killed)));
  if (dead) facts.push(fact("models slain on average", dead.mean.toFixed(2), `${pct(chanceOf(dead))} to slay at least one`));
  if (view.damage) facts.push(fact("damage on average", view.damage.mean.toFixed(2), `${pct(chanceOf(view.damage))} to do any`));
  const res = view.combat_resolution;
  if (res && typeof res === "object") {
    for (const [k, p] of Object.entries(res)) if (typeof p === "number") facts.push(fact(words(k), pct(p)));
  }
  for (const [name, labels] of Object.entries(CATEGORIES)) {
    const st = view[name];
    if (!st) continue;
    const best = st.pmf.indexOf(Math.max(...st.pmf));
    facts.push(fact(`most likely ${words(name)}`, labels[best] ?? String(best), `${pct(st.pmf[best])}`));
  }
  return h("div", { class: "facts" }, ...facts);
}

/** The stage table: mean, sd, P(0), P(≥1) and the highest possible count. */
export function stageTable(stages) {
  const head = ["stage", "mean", "sd", "P(0)", "P(≥1)", "max"];
  const rows = stages.filter(([n]) => !(n in CATEGORIES)).map(([name, st]) => {
    const { sd } = stats(st.pmf);
    return h("tr", {}, h("th", { scope: "row" }, words(name)), h("td", {}, st.mean.toFixed(3)),
      h("td", {}, sd.toFixed(3)), h("td", {}, pct(st.pmf[0] ?? 0)), h("td", {}, pct(atLeast(st.pmf)[1] ?? 0)),
      h("td", {}, String(highest(st.pmf))));
  });
  return table("Every stage: mean, spread, chance of none, of any, and the most possible", head, rows);
}

/** Named outcomes (e.g. a melee's winner) as a list of chances, not as counts with a mean. */
export function categoryTable(view) {
  const rows = [];
  for (const [name, labels] of Object.entries(CATEGORIES)) {
    const st = view[name];
    if (!st) continue;
    st.pmf.forEach((p, k) => rows.push(h("tr", {}, h("th", { scope: "row" }, `${words(name)}: ${labels[k] ?? k}`),
      h("td", {}, pct(p)))));
  }
  return rows.length ? table("Named outcomes", ["outcome", "chance"], rows) : null;
}

/** "At least N" and "at most N" of one stage, row by row (the charts' accessible twin). */
export function atLeastTable(name, pmf) {
  const al = atLeast(pmf);
  const top = highest(pmf);
  const rows = [];
  let most = 0;
  for (let k = 0; k <= top; k++) {
    most += pmf[k] ?? 0;
    // rows from the first count with a chance worth showing to the last (5e-5: as the charts)
    if (most < 5e-5 && k < top) continue;
    rows.push(h("tr", {}, h("th", { scope: "row" }, String(k)), h("td", {}, pct(pmf[k] ?? 0)),
      h("td", {}, pct(al[k] ?? 0)), h("td", {}, pct(Math.min(1, most)))));
    if (k >= 1 && al[k + 1] !== undefined && al[k + 1] < 5e-5 && 1 - most < 5e-5) break;
  }
  return table(`${words(name)}: exactly, at least and at most N`, ["N", "exactly", "at least", "at most"], rows);
}

function table(caption, head, rows) {
  return h("div", { class: "table-wrap" }, h("table", {}, h("caption", {}, caption),
    h("thead", {}, h("tr", {}, ...head.map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, ...rows)));
}

/** The result's notes (e.g. unverified rule readings): one line, opened on demand. */
export function notesBox(notes) {
  if (!notes || !notes.length) return null;
  const what = notes.length === 1 ? "1 note" : `${notes.length} notes`;
  return h("details", { class: "notes" }, h("summary", {}, `${what} on how rules were read (unverified readings)`),
    h("ul", {}, ...notes.map((n) => h("li", {}, n))));
}

const SKIP = new Set(["system", "method", "title", "trials", "seed", "notes", "targets"]);

/** Everything else in the result as readable text: probabilities as percentages, policies as lines. */
export function extrasView(view) {
  const parts = [];
  for (const [key, value] of Object.entries(view)) {
    if (SKIP.has(key) || (value && Array.isArray(value.pmf))) continue;
    parts.push(h("section", { class: "extra" }, h("h3", {}, words(key)), describe(value, key)));
  }
  return parts;
}

function isProbability(key, v) { return typeof v === "number" && v >= 0 && v <= 1.0000001 && /^p_|^p$|probability|chance|wins|draw/.test(key); }

function describe(value, key = "") {
  if (value === null || value === undefined) return h("span", {}, "—");
  if (typeof value !== "object") return h("span", {}, isProbability(key, value) ? pct(value) : typeof value === "number" ? String(+value.toFixed(4)) : String(value));
  if (Array.isArray(value.pmf)) return h("span", {}, `mean ${value.mean.toFixed(3)}`);
  if (Array.isArray(value)) {
    if (value.every((x) => x && typeof x === "object" && !Array.isArray(x))) return recordList(value);
    return h("span", {}, value.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join(", "));
  }
  const allChances = Object.values(value).every((v) => typeof v === "number" && v >= 0 && v <= 1.0000001) && /state|effects|choices|resolution|weapon/.test(key);
  return h("dl", {}, ...Object.entries(value).flatMap(([k, v]) => [h("dt", {}, words(k)),
    h("dd", {}, allChances ? h("span", {}, pct(v)) : describe(v, k))]));
}

/** A list of records (a policy, the lines of a fight): one readable line each. */
function recordList(records) {
  return h("ol", { class: "records" }, ...records.map((r) => h("li", {}, ...Object.entries(r).map(([k, v]) => {
    let text;
    if (Array.isArray(v)) text = v.map((x) => (typeof x === "object" ? JSON.stringify(x) : String(x))).join(" → ");
    else if (v && typeof v === "object") text = Object.entries(v).map(([a, b]) => `${words(a)} ${b}`).join(", ");
    else text = isProbability(k, v) ? pct(v) : String(v);
    return h("span", { class: "rec" }, h("b", {}, `${words(k)}: `), text);
  }))));
}
