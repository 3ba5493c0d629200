// The grimdice page: pick a system, edit a scenario (form or YAML/JSON), calculate, compare, share.
import { setupArmies } from "./armies.js";
import { atLeast, barChart, COLORS, lastShown, lineChart } from "./charts.js";
import { drawCompare, MAX_COMPARE } from "./compare.js";
import { setupCrusade } from "./crusade.js";
import { setupGames } from "./games.js";
import { elementFor, h, renderForm, words } from "./form.js";
import { atLeastTable, categoryTable, extrasView, headline, notesBox, stagesOf, stageTable, stats } from "./result.js";
import { rulePicker } from "./rules.js";
import { setupScenarios } from "./scenarios.js";
import { decode, encode } from "./share.js";
import { vary, varyFields } from "./vary.js";
import { dump } from "./yaml.js";

const $ = (sel) => document.querySelector(sel);
const FIRST_EXAMPLE = "wh40k-intercessors-vs-boyz"; // the page opens on this one, calculated
// gen counts scenario loads: an answer to an older load (a pasted text parsed late) is dropped
const state = { systems: {}, examples: [], system: null, data: {}, result: null, view: null, compare: [], gen: 0, rules: {} };

async function api(path, body, signal) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body), signal };
  const res = await fetch(path, init);
  let data;
  try { data = await res.json(); } catch { data = { error: `HTTP ${res.status}` }; }
  return { ok: res.ok, status: res.status, data, timing: res.headers.get("Server-Timing") };
}

/** A system's name in words: its description up to the first colon (e.g. "Kill Team (2021 edition)"). */
function systemTitle(s) {
  return s.description.replace(/\s*\(``[^)]*``\)/, "").split(":")[0].trim() || s.name;
}

// ---------- run options ----------
function runOptions() {
  const simulate = document.querySelector("input[name=method]:checked").value === "simulate";
  const num = (v) => (v.trim() === "" ? null : /^\d+$/.test(v.trim()) ? Number(v.trim()) : v.trim());
  return { simulate: simulate ? num($("#trials").value) : null, seed: simulate ? num($("#seed").value) : null };
}

function setRunOptions(simulate, seed) {
  document.querySelector(`input[name=method][value=${simulate ? "simulate" : "exact"}]`).checked = true;
  if (simulate) $("#trials").value = String(simulate);
  $("#seed").value = seed === null || seed === undefined ? "" : String(seed);
  syncTrials();
}

function syncTrials() {
  const sim = document.querySelector("input[name=method]:checked").value === "simulate";
  $("#trials").disabled = !sim;
  $("#seed").disabled = !sim;
}

// ---------- scenario editing ----------
function format() { return document.querySelector("input[name=format]:checked").value; }

function showSource(force = false) {
  if (document.activeElement === $("#source") && !force) return;
  $("#source").value = format() === "json" ? JSON.stringify(state.data, null, 2) + "\n" : dump(state.data);
}

let linkTimer;
function changed() {
  clearErrors();
  showSource();
  markStale();
  clearTimeout(linkTimer);
  linkTimer = setTimeout(updateLink, 250);
}

/** The result no longer matches the form (or the run options): say so until the next Calculate. */
function markStale() {
  const r = state.result;
  const { simulate, seed } = runOptions();
  const same = r && JSON.stringify(r.scenario) === JSON.stringify(state.data) && r.simulate === simulate
    && (seed === null || r.seed === seed);
  $("#results").classList.toggle("stale", !!r && !same);
  $("#stale").hidden = !r || same;
}

function loadScenario(data, example = "") {
  $("#example").value = example;
  const system = data.system in state.systems ? data.system : state.system;
  state.gen += 1;
  state.system = system;
  state.data = structuredClone(data);
  state.data.system = system;
  $("#system").value = system;
  renderForm($("#fields"), state.systems[system].schema, state, changed, rulePicker(state.rules, system));
  changed();
  showSource(true);
}

function chooseSystem(name) {
  const first = state.examples.find((e) => e.system === name);
  const schema = state.systems[name].schema;
  loadScenario(first ? first.scenario : { system: name, ...blankTop(schema) }, first ? first.name : "");
}

function blankTop(schema) {
  const out = {};
  for (const r of schema.required || []) if (r !== "system") out[r] = {};
  return out;
}

/** The examples as one picker, grouped by system. */
function showExamples() {
  const groups = Object.values(state.systems).map((s) => {
    const list = state.examples.filter((e) => e.system === s.name);
    return list.length ? h("optgroup", { label: systemTitle(s) },
      ...list.map((ex) => h("option", { value: ex.name, title: ex.name }, ex.title))) : null;
  }).filter(Boolean);
  $("#example").replaceChildren(h("option", { value: "" }, "— pick an example —"), ...groups);
}

function openExample(name) {
  const ex = state.examples.find((e) => e.name === name);
  if (!ex) return;
  loadScenario(ex.scenario, ex.name);
  calculate();
}

let parseTimer;
async function sourceEdited() {
  const gen = state.gen;
  const text = $("#source").value;
  const res = await api("/api/parse", { text });
  if (gen !== state.gen || text !== $("#source").value) return false; // another scenario was loaded since
  clearErrors();
  if (!res.ok) { showError(res.data); return false; }
  const sc = res.data.scenario;
  if (!(sc.system in state.systems)) {
    showError({ field: "text", message: `unknown system ${JSON.stringify(sc.system)}; allowed: ${Object.keys(state.systems).join(", ")}` });
    return false;
  }
  state.system = sc.system;
  state.data = sc;
  $("#system").value = sc.system;
  $("#example").value = "";
  renderForm($("#fields"), state.systems[sc.system].schema, state, changed, rulePicker(state.rules, sc.system));
  markStale();
  clearTimeout(linkTimer);
  linkTimer = setTimeout(updateLink, 250);
  return true;
}

// ---------- errors next to the field they name ----------
function clearErrors() {
  for (const e of document.querySelectorAll(".field-error.inline")) e.remove();
  for (const e of document.querySelectorAll("[aria-invalid]")) {
    e.removeAttribute("aria-invalid");
    e.removeAttribute("aria-describedby");
  }
  $("#form-error").hidden = true;
}

function showError(err) {
  const field = err.field || "";
  const message = err.message || err.error || "error";
  const scope = field === "text" || field === "simulate" || field === "seed" ? document : $("#fields");
  const target = field ? elementFor(scope, field) : null;
  if (!target) {
    $("#form-error").textContent = field ? `${field}: ${message}` : message;
    $("#form-error").hidden = false;
    return;
  }
  const exact = target.getAttribute("data-path") === field;
  const text = exact ? message : `${field}: ${message}`;
  const note = h("p", { class: "field-error inline", id: "err-" + Math.random().toString(36).slice(2), role: "alert" }, text);
  if (target.tagName === "FIELDSET") {
    target.querySelector("legend").after(note);
  } else {
    target.parentElement.append(note);
    target.setAttribute("aria-describedby", note.id);
  }
  target.setAttribute("aria-invalid", "true");
  if (target.closest("details")) target.closest("details").open = true;
  (target.tagName === "FIELDSET" ? note : target).scrollIntoView({ block: "center" });
  if (target.focus && target.tagName !== "FIELDSET") target.focus({ preventScroll: true });
}

/** The drawing width of a chart in `el`: its width on screen, so text stays readable on a phone. */
function widthOf(el) { return Math.max(300, Math.min(640, Math.round(el.clientWidth || 560))); }

// ---------- calculating: one run at a time, a new one supersedes it, Cancel stops it ----------
async function runOne(scenario, simulate, seed, signal) {
  const t0 = performance.now();
  const res = await api("/api/calculate", { scenario, simulate, seed }, signal);
  const ms = performance.now() - t0;
  const server = res.timing ? Number((/dur=([\d.]+)/.exec(res.timing) || [])[1]) : null;
  return { ...res, ms, server };
}

let current = null; // the running calculation: {controller, timer}

function stopRun(run) {
  clearInterval(run.timer);
  if (current === run) { current = null; $("#cancel").hidden = true; }
}

function cancel() {
  if (!current) return;
  current.controller.abort();
  stopRun(current);
  $("#status").textContent = "Cancelled";
}

/** Calculate the scenario on screen; the result's JSON, or undefined (an error, or superseded). */
async function calculate() {
  if (current) current.controller.abort();
  const run = { controller: new AbortController(), started: performance.now() };
  stopRun(current || run);
  current = run;
  clearErrors();
  $("#link-error").hidden = true;
  const { simulate, seed } = runOptions();
  const scenario = structuredClone(state.data);
  const tick = () => { $("#status").textContent = `Calculating… ${((performance.now() - run.started) / 1000).toFixed(1)} s`; };
  tick();
  run.timer = setInterval(tick, 200);
  $("#cancel").hidden = false;
  try {
    const res = await runOne(scenario, simulate, seed, run.controller.signal);
    if (current !== run) return;
    if (!res.ok) {
      $("#status").textContent = `Error (${res.status}): see the message by the field`;
      const head = $("#result-head");
      if (state.result && !head.textContent.startsWith("Previous")) head.textContent = `Previous result, before the error: ${head.textContent}`;
      showError(res.data);
      return;
    }
    state.result = { data: res.data, scenario, simulate, seed: res.data.seed ?? seed };
    const took = res.server !== null ? `${(res.server / 1000).toFixed(3)} s calculating, ` : "";
    $("#status").textContent = `Done: ${took}${(res.ms / 1000).toFixed(3)} s in all`;
    showResult(res.data);
    markStale();
    updateLink();
    // one column (a phone): the result is below the form, so bring it into view
    if (window.matchMedia("(max-width: 900px)").matches) $("#results").scrollIntoView({ block: "start" });
    return res.data;
  } catch (e) {
    if (e.name !== "AbortError" && current === run) $("#status").textContent = `Error: ${e.message}`;
  } finally {
    stopRun(run);
  }
}

function showResult(data) {
  $("#result-body").hidden = false;
  varyFields($("#fields"));
  const targets = data.targets ? Object.keys(data.targets) : [];
  $("#target-row").hidden = targets.length === 0;
  $("#target").replaceChildren(h("option", { value: "" }, "all targets (the whole attack)"),
    ...targets.map((t) => h("option", { value: t }, t)));
  showView(data);
}

function showView(view) {
  state.view = view;
  const how = view.method === "exact" ? "exact" : `simulated: ${view.trials} trials, seed ${view.seed}`;
  $("#result-head").textContent = `${view.title || view.system} (${how})`;
  $("#result-head").classList.remove("muted");
  $("#headline").replaceChildren(headline(view, state.result.scenario));
  $("#notes").replaceChildren(notesBox(view.notes) || "");
  const stages = stagesOf(view);
  $("#stage-table").replaceChildren(stageTable(stages), categoryTable(view) || "");
  const stageSel = $("#stage");
  const keep = stageSel.value;
  stageSel.replaceChildren(...stages.map(([n]) => h("option", { value: n }, words(n))));
  stageSel.value = stages.some(([n]) => n === keep) ? keep : (stages.some(([n]) => n === "damage") ? "damage" : stages[0]?.[0]);
  drawStage();
  const multiples = stages.map(([name, st]) => h("div", {}, h("h3", {}, `${words(name)} (mean ${st.mean.toFixed(2)})`),
    h("div", { class: "chart" }, barChart(st.pmf, { label: words(name), height: 170, width: 300 }))));
  $("#stage-charts").replaceChildren(...multiples);
  const extras = extrasView(view);
  $("#extras-box").hidden = extras.length === 0;
  $("#extras").replaceChildren(...extras);
}

function drawStage() {
  const name = $("#stage").value;
  const st = state.view && state.view[name];
  if (!st) return;
  const { mean, sd } = stats(st.pmf);
  $("#bar-chart").replaceChildren(barChart(st.pmf, { label: words(name), width: widthOf($("#bar-chart")) }));
  $("#bar-caption").textContent = `${words(name)}: P(exactly N); mean ${mean.toFixed(3)}, sd ${sd.toFixed(3)}`;
  $("#atleast-chart").replaceChildren(lineChart([{ label: words(name), color: COLORS[0], values: atLeast(st.pmf), last: lastShown(st.pmf) }],
    { xlabel: words(name), width: widthOf($("#atleast-chart")) }));
  $("#atleast-caption").textContent = `${words(name)}: P(at least N)`;
  $("#atleast-table").replaceChildren(atLeastTable(name, st.pmf));
}

// ---------- compare ----------
function addCompare() {
  if (!state.result) return;
  if (state.compare.length >= MAX_COMPARE) state.compare.shift();
  const r = state.result;
  const target = $("#target").value || null;
  const title = r.data.title || systemTitle(state.systems[r.data.system]);
  state.compare.push({ label: target ? `${title}: ${target}` : title, data: state.view,
    scenario: r.scenario, simulate: r.simulate, seed: r.seed, target });
  redrawCompare();
  updateLink();
}

function redrawCompare() { drawCompare(state.compare, updateLink, widthOf); }

// ---------- sharing ----------
function linkState() {
  const { simulate } = runOptions();
  const r = state.result;
  // a simulation's link carries the seed its result used, so the link reproduces it
  const seed = simulate === null ? null : runOptions().seed ?? (r && r.simulate !== null ? r.seed : null);
  return { s: state.data, n: simulate, r: seed,
    c: state.compare.map((c) => ({ s: c.scenario, n: c.simulate, r: c.seed, l: c.label, t: c.target })) };
}

let lastHash = "";
async function updateLink() {
  lastHash = "#" + (await encode(linkState()));
  history.replaceState(null, "", lastHash);
}

function linkBroken(message) {
  $("#link-error").textContent = `This link could not be read (${message}); nothing from it was loaded.`;
  $("#link-error").hidden = false;
}

async function openLink() {
  let st;
  try { st = await decode(location.hash); } catch (e) { linkBroken(e.message); return false; }
  if (!st || typeof st.s !== "object" || !st.s || !(st.s.system in state.systems)) {
    linkBroken(st && st.s ? `unknown system ${JSON.stringify(st.s.system)}` : "no scenario in it");
    return false;
  }
  setRunOptions(st.n, st.r);
  loadScenario(st.s);
  state.compare = [];
  for (const c of st.c || []) {
    const res = await runOne(c.s, c.n ?? null, c.r ?? null);
    const view = res.ok && c.t ? (res.data.targets || {})[c.t] : res.data;
    if (res.ok && view) state.compare.push({ label: c.l || res.data.title || res.data.system, data: view,
      scenario: c.s, simulate: c.n ?? null, seed: res.data.seed ?? c.r ?? null, target: c.t || null });
  }
  redrawCompare();
  await calculate();
  return true;
}

async function copy(text, button) {
  try {
    await navigator.clipboard.writeText(text);
    button.textContent = "Copied";
  } catch {
    button.textContent = "Copy failed: select and copy by hand";
  }
  setTimeout(() => { button.textContent = button.dataset.label; }, 1500);
}

// ---------- start ----------
function wire() {
  $("#system").addEventListener("change", (e) => chooseSystem(e.target.value));
  $("#example").addEventListener("change", (e) => openExample(e.target.value));
  $("#scenario-form").addEventListener("submit", (e) => { e.preventDefault(); calculate(); });
  $("#cancel").addEventListener("click", cancel);
  for (const r of document.querySelectorAll("input[name=method]")) r.addEventListener("change", () => { syncTrials(); markStale(); updateLink(); });
  for (const r of document.querySelectorAll("input[name=format]")) r.addEventListener("change", () => { $("#source").blur(); showSource(); });
  for (const r of document.querySelectorAll("input[name=compare-kind]")) r.addEventListener("change", redrawCompare);
  $("#compare-stage").addEventListener("change", redrawCompare);
  $("#stage").addEventListener("change", drawStage);
  $("#target").addEventListener("change", (e) => {
    const data = state.result.data;
    showView(e.target.value ? data.targets[e.target.value] : data);
  });
  $("#add-compare").addEventListener("click", addCompare);
  $("#vary").addEventListener("click", () => vary({ state, runOne, addCompare, redrawCompare, updateLink }));
  $("#source").addEventListener("input", () => { clearTimeout(parseTimer); parseTimer = setTimeout(sourceEdited, 400); });
  $("#source").addEventListener("blur", () => { clearTimeout(parseTimer); sourceEdited().then(showSource); });
  $("#source").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) {
      e.preventDefault();
      clearTimeout(parseTimer);
      sourceEdited().then((ok) => ok && calculate());
    }
  });
  for (const b of [$("#copy-link"), $("#copy-source")]) b.dataset.label = b.textContent;
  $("#copy-link").addEventListener("click", async () => { await updateLink(); copy(location.href, $("#copy-link")); });
  $("#copy-source").addEventListener("click", () => copy($("#source").value, $("#copy-source")));
  for (const f of [$("#trials"), $("#seed")]) f.addEventListener("input", () => { markStale(); updateLink(); });
  // the skip link moves focus without touching the URL fragment (which holds the page state)
  $(".skip").addEventListener("click", (e) => { e.preventDefault(); $("#system").focus(); });
  window.addEventListener("hashchange", () => {
    if (location.hash !== lastHash && /^#[zj]/.test(location.hash)) openLink();
  });
}

async function start() {
  const [systems, examples, rules, armies, crusade] = await Promise.all([api("/api/systems"), api("/api/examples"),
    api("/api/rules"), api("/api/games/armies"), api("/api/games/crusade")]);
  if (rules.ok) state.rules = rules.data;
  setupGames(armies.ok ? armies.data : []);
  setupCrusade(crusade.ok ? crusade.data : []);
  for (const s of systems.data) state.systems[s.name] = s;
  state.examples = examples.data;
  $("#system").replaceChildren(...systems.data.map((s) => h("option", { value: s.name, title: s.description }, systemTitle(s))));
  showExamples();
  wire();
  setupArmies((scenario) => { loadScenario(scenario); return calculate(); });
  setupScenarios({ current: () => state.data, load: loadScenario, systems: () => Object.keys(state.systems) });
  syncTrials();
  state.system = systems.data[0].name;
  let opened = false;
  if (location.hash.length > 1) opened = await openLink();
  if (!opened) {
    const first = state.examples.find((e) => e.name === FIRST_EXAMPLE) || state.examples[0];
    if (first) {
      loadScenario(first.scenario, first.name);
      if ($("#link-error").hidden) await calculate();
    } else chooseSystem(state.system);
  }
  document.body.dataset.ready = "true";
}

start();
