// The grimdice page: pick a system, edit a scenario (form or YAML/JSON), calculate, compare, share.
import { atLeast, barChart, COLORS, lastShown, lineChart, pct } from "./charts.js";
import { elementFor, h, renderForm, words } from "./form.js";
import { decode, encode } from "./share.js";
import { dump } from "./yaml.js";

const $ = (sel) => document.querySelector(sel);
const MAX_COMPARE = 4;
const state = { systems: {}, examples: [], system: null, data: {}, result: null, view: null, compare: [] };

async function api(path, body) {
  const init = body === undefined ? {} : {
    method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) };
  const res = await fetch(path, init);
  let data;
  try { data = await res.json(); } catch { data = { error: `HTTP ${res.status}` }; }
  return { ok: res.ok, status: res.status, data, timing: res.headers.get("Server-Timing") };
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

function showSource() {
  if (document.activeElement === $("#source")) return;
  $("#source").value = format() === "json" ? JSON.stringify(state.data, null, 2) + "\n" : dump(state.data);
}

let linkTimer;
function changed() {
  clearErrors();
  showSource();
  clearTimeout(linkTimer);
  linkTimer = setTimeout(updateLink, 250);
}

function loadScenario(data) {
  const system = data.system in state.systems ? data.system : state.system;
  state.system = system;
  state.data = structuredClone(data);
  state.data.system = system;
  $("#system").value = system;
  renderForm($("#fields"), state.systems[system].schema, state, changed);
  showExamples();
  $("#source").value = "";
  changed();
}

function chooseSystem(name) {
  const first = state.examples.find((e) => e.system === name);
  const schema = state.systems[name].schema;
  loadScenario(first ? first.scenario : { system: name, ...blankTop(schema) });
}

function blankTop(schema) {
  const out = {};
  for (const r of schema.required || []) if (r !== "system") out[r] = {};
  return out;
}

function showExamples() {
  const box = $("#examples");
  box.replaceChildren();
  const systems = [state.system, ...Object.keys(state.systems).filter((s) => s !== state.system)];
  for (const sys of systems) {
    const list = state.examples.filter((e) => e.system === sys);
    if (!list.length) continue;
    const group = h("div", { class: "group" }, h("h3", {}, `Examples: ${sys}`));
    for (const ex of list) {
      group.append(h("button", { type: "button", class: "example", "data-example": ex.name, title: ex.name,
        onclick: () => { loadScenario(ex.scenario); calculate(); } }, ex.title));
    }
    box.append(group);
  }
}

let parseTimer;
async function sourceEdited() {
  const text = $("#source").value;
  const res = await api("/api/parse", { text });
  clearErrors();
  if (!res.ok) { showError(res.data); return; }
  const sc = res.data.scenario;
  if (!(sc.system in state.systems)) {
    showError({ field: "text", message: `unknown system ${JSON.stringify(sc.system)}; allowed: ${Object.keys(state.systems).join(", ")}` });
    return;
  }
  state.system = sc.system;
  state.data = sc;
  $("#system").value = sc.system;
  renderForm($("#fields"), state.systems[sc.system].schema, state, changed);
  showExamples();
  clearTimeout(linkTimer);
  linkTimer = setTimeout(updateLink, 250);
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

// ---------- calculating ----------
function stagesOf(result) {
  return Object.entries(result).filter(([, v]) => v && typeof v === "object" && Array.isArray(v.pmf) && "mean" in v);
}

function stats(pmf) {
  let m = 0, m2 = 0;
  pmf.forEach((p, k) => { m += p * k; m2 += p * k * k; });
  return { mean: m, sd: Math.sqrt(Math.max(0, m2 - m * m)) };
}

async function runOne(scenario, simulate, seed) {
  const t0 = performance.now();
  const res = await api("/api/calculate", { scenario, simulate, seed });
  const ms = performance.now() - t0;
  const server = res.timing ? Number((/dur=([\d.]+)/.exec(res.timing) || [])[1]) : null;
  return { ...res, ms, server };
}

let running = false;
async function calculate() {
  if (running) return;
  running = true;
  clearErrors();
  const { simulate, seed } = runOptions();
  $("#calculate").disabled = true;
  $("#status").textContent = "Calculating…";
  try {
    const res = await runOne(state.data, simulate, seed);
    if (!res.ok) {
      $("#status").textContent = `Error (${res.status}): see the message by the field`;
      const head = $("#result-head");
      if (state.result && !head.textContent.startsWith("Previous")) head.textContent = `Previous result, before the error: ${head.textContent}`;
      showError(res.data);
      return;
    }
    state.result = { data: res.data, scenario: structuredClone(state.data), simulate, seed };
    const took = res.server !== null ? `${(res.server / 1000).toFixed(3)} s calculating, ` : "";
    $("#status").textContent = `Done: ${took}${(res.ms / 1000).toFixed(3)} s in all`;
    showResult(res.data);
    updateLink();
    // one column (a phone): the result is below the form, so bring it into view
    if (window.matchMedia("(max-width: 900px)").matches) $("#results").scrollIntoView({ block: "start" });
  } catch (e) {
    $("#status").textContent = `Error: ${e.message}`;
  } finally {
    $("#calculate").disabled = false;
    running = false;
  }
}

function showResult(data) {
  $("#result-body").hidden = false;
  const targets = data.targets ? Object.keys(data.targets) : [];
  $("#target-row").hidden = targets.length === 0;
  const sel = $("#target");
  sel.replaceChildren(h("option", { value: "" }, "all targets (the whole attack)"),
    ...targets.map((t) => h("option", { value: t }, t)));
  showView(data);
}

function showView(view) {
  state.view = view;
  const how = view.method === "exact" ? "exact" : `simulated: ${view.trials} trials, seed ${view.seed}`;
  $("#result-head").textContent = `${view.title || view.system} (${how})`;
  $("#result-head").classList.remove("muted");
  $("#notes").replaceChildren(...(view.notes || []).map((n) => h("li", {}, n)));
  const stages = stagesOf(view);
  // stage table
  const table = h("table", {}, h("caption", { class: "sr-only" }, "Stages"),
    h("thead", {}, h("tr", {}, ...["stage", "mean", "sd", "P(0)", "P(≥1)", "max"].map((c) => h("th", { scope: "col" }, c)))));
  const body = h("tbody");
  for (const [name, st] of stages) {
    const { sd } = stats(st.pmf);
    const al = atLeast(st.pmf);
    body.append(h("tr", {}, h("th", { scope: "row" }, words(name)), h("td", {}, st.mean.toFixed(3)),
      h("td", {}, sd.toFixed(3)), h("td", {}, pct(st.pmf[0] ?? 0)), h("td", {}, pct(al[1] ?? 0)),
      h("td", {}, String(lastShown(st.pmf)))));
  }
  table.append(body);
  $("#stage-table").replaceChildren(h("div", { class: "table-wrap" }, table));
  // stage selector and charts
  const stageSel = $("#stage");
  const keep = stageSel.value;
  stageSel.replaceChildren(...stages.map(([n]) => h("option", { value: n }, words(n))));
  stageSel.value = stages.some(([n]) => n === keep) ? keep : (stages.some(([n]) => n === "damage") ? "damage" : stages[0]?.[0]);
  drawStage();
  const multiples = stages.map(([name, st]) => h("div", {}, h("h3", {}, `${words(name)} (mean ${st.mean.toFixed(2)})`),
    h("div", { class: "chart" }, barChart(st.pmf, { label: words(name), height: 170, width: 300 }))));
  $("#stage-charts").replaceChildren(...multiples);
  const extras = Object.fromEntries(Object.entries(view).filter(([k, v]) =>
    !["system", "method", "title", "trials", "seed", "notes", "targets"].includes(k) && !(v && Array.isArray(v.pmf))));
  $("#extras-box").hidden = Object.keys(extras).length === 0;
  $("#extras").textContent = JSON.stringify(extras, null, 2);
}

function drawStage() {
  const name = $("#stage").value;
  const st = state.view && state.view[name];
  if (!st) return;
  const { mean, sd } = stats(st.pmf);
  $("#bar-chart").replaceChildren(barChart(st.pmf, { label: words(name), width: widthOf($("#bar-chart")) }));
  $("#bar-caption").textContent = `${words(name)}: P(exactly N); mean ${mean.toFixed(3)}, sd ${sd.toFixed(3)}`;
  const al = atLeast(st.pmf);
  $("#atleast-chart").replaceChildren(lineChart([{ label: words(name), color: COLORS[0], values: al, last: lastShown(st.pmf) }],
    { xlabel: words(name), width: widthOf($("#atleast-chart")) }));
  $("#atleast-caption").textContent = `${words(name)}: P(at least N)`;
}

// ---------- compare ----------
function addCompare() {
  if (!state.result) return;
  if (state.compare.length >= MAX_COMPARE) state.compare.shift();
  const r = state.result;
  state.compare.push({ label: r.data.title || `${r.data.system} ${state.compare.length + 1}`, data: r.data,
    scenario: r.scenario, simulate: r.simulate, seed: r.seed });
  drawCompare();
  updateLink();
}

function swatch(color) {
  const e = h("span", { class: "swatch", "aria-hidden": "true" });
  e.style.background = color; // CSSOM, allowed by the page's Content-Security-Policy
  return e;
}

function drawCompare() {
  $("#compare").hidden = state.compare.length === 0;
  const list = $("#compare-list");
  list.replaceChildren(...state.compare.map((c, i) => h("li", {},
    swatch(COLORS[i]), h("span", {}, `${i + 1}. ${c.label}`),
    h("button", { type: "button", class: "small", "aria-label": `Remove ${c.label} from the comparison`,
      onclick: () => { state.compare.splice(i, 1); drawCompare(); updateLink(); } }, "Remove"))));
  const names = [...new Set(state.compare.flatMap((c) => stagesOf(c.data).map(([n]) => n)))];
  const sel = $("#compare-stage");
  const keep = sel.value || "damage";
  sel.replaceChildren(...names.map((n) => h("option", { value: n }, words(n))));
  sel.value = names.includes(keep) ? keep : names[0] || "";
  const stage = sel.value;
  const kindAtLeast = document.querySelector("input[name=compare-kind]:checked").value === "atleast";
  const series = state.compare.map((c, i) => ({ c, i, st: c.data[stage] })).filter((x) => x.st)
    .map(({ c, i, st }) => ({ label: `${i + 1}. ${c.label}`, color: COLORS[i],
      values: kindAtLeast ? atLeast(st.pmf) : st.pmf, last: lastShown(st.pmf) }));
  $("#compare-chart").replaceChildren(series.length ? lineChart(series, {
    xlabel: words(stage), ylabel: kindAtLeast ? "P(at least N)" : "P(exactly N)",
    width: widthOf($("#compare-chart")) }) : "");
  const rows = state.compare.map((c, i) => {
    const st = c.data[stage];
    const s = st ? stats(st.pmf) : null;
    return h("tr", {}, h("th", { scope: "row" }, `${i + 1}. ${c.label}`), h("td", {}, s ? s.mean.toFixed(3) : "—"),
      h("td", {}, s ? s.sd.toFixed(3) : "—"), h("td", {}, st ? pct(atLeast(st.pmf)[1] ?? 0) : "—"));
  });
  $("#compare-table").replaceChildren(h("div", { class: "table-wrap" }, h("table", {},
    h("thead", {}, h("tr", {}, ...["scenario", "mean", "sd", "P(≥1)"].map((c) => h("th", { scope: "col" }, c)))),
    h("tbody", {}, ...rows))));
}

// ---------- sharing ----------
async function linkState() {
  const { simulate, seed } = runOptions();
  return { s: state.data, n: simulate, r: seed,
    c: state.compare.map((c) => ({ s: c.scenario, n: c.simulate, r: c.seed, l: c.label })) };
}

let lastHash = "";
async function updateLink() {
  lastHash = "#" + (await encode(await linkState()));
  history.replaceState(null, "", lastHash);
}

async function openLink() {
  const st = await decode(location.hash);
  if (!st || !st.s) return false;
  setRunOptions(st.n, st.r);
  loadScenario(st.s);
  state.compare = [];
  for (const c of st.c || []) {
    const res = await runOne(c.s, c.n ?? null, c.r ?? null);
    if (res.ok) state.compare.push({ label: c.l || res.data.title || res.data.system, data: res.data,
      scenario: c.s, simulate: c.n ?? null, seed: c.r ?? null });
  }
  drawCompare();
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
async function start() {
  const [systems, examples] = await Promise.all([api("/api/systems"), api("/api/examples")]);
  for (const s of systems.data) state.systems[s.name] = s;
  state.examples = examples.data;
  $("#system").replaceChildren(...systems.data.map((s) => h("option", { value: s.name, title: s.description }, s.name)));
  $("#system").addEventListener("change", (e) => chooseSystem(e.target.value));
  $("#scenario-form").addEventListener("submit", (e) => { e.preventDefault(); calculate(); });
  for (const r of document.querySelectorAll("input[name=method]")) r.addEventListener("change", () => { syncTrials(); updateLink(); });
  for (const r of document.querySelectorAll("input[name=format]")) r.addEventListener("change", () => { $("#source").blur(); showSource(); });
  for (const r of document.querySelectorAll("input[name=compare-kind]")) r.addEventListener("change", drawCompare);
  $("#compare-stage").addEventListener("change", drawCompare);
  $("#stage").addEventListener("change", drawStage);
  $("#target").addEventListener("change", (e) => {
    const data = state.result.data;
    showView(e.target.value ? data.targets[e.target.value] : data);
  });
  $("#add-compare").addEventListener("click", addCompare);
  $("#source").addEventListener("input", () => { clearTimeout(parseTimer); parseTimer = setTimeout(sourceEdited, 400); });
  $("#source").addEventListener("blur", () => { clearTimeout(parseTimer); sourceEdited().then(showSource); });
  $("#source").addEventListener("keydown", (e) => {
    if (e.key === "Enter" && (e.ctrlKey || e.metaKey)) { e.preventDefault(); clearTimeout(parseTimer); sourceEdited().then(calculate); }
  });
  for (const b of [$("#copy-link"), $("#copy-source")]) b.dataset.label = b.textContent;
  $("#copy-link").addEventListener("click", async () => { await updateLink(); copy(location.href, $("#copy-link")); });
  $("#copy-source").addEventListener("click", () => copy($("#source").value, $("#copy-source")));
  $("#trials").addEventListener("input", () => updateLink());
  $("#seed").addEventListener("input", () => updateLink());
  window.addEventListener("hashchange", () => { if (location.hash !== lastHash) openLink(); });
  syncTrials();
  state.system = systems.data[0].name;
  let opened = false;
  if (location.hash.length > 1) {
    try { opened = await openLink(); } catch (e) { showError({ message: `this link could not be read: ${e.message}` }); }
  }
  if (!opened) chooseSystem(state.system);
  document.body.dataset.ready = "true";
}

start();
