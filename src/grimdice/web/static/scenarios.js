// Named scenarios saved in this browser (localStorage), and YAML files downloaded or uploaded.
import { h } from "./form.js";
import { dump } from "./yaml.js";

const KEY = "grimdice.scenarios";
const $ = (sel) => document.querySelector(sel);

function saved() {
  try {
    const all = JSON.parse(localStorage.getItem(KEY) || "{}");
    return all && typeof all === "object" && !Array.isArray(all) ? all : {};
  } catch { return {}; }
}

function say(text) { $("#saved-status").textContent = text; }

/** Wire the "My scenarios" box: `current()` the scenario shown, `load(scenario)` shows one. */
export function setupScenarios({ current, load, systems }) {
  const list = () => {
    const names = Object.keys(saved()).sort();
    $("#saved").replaceChildren(h("option", { value: "" }, names.length ? "— saved scenarios —" : "— none saved yet —"),
      ...names.map((n) => h("option", { value: n }, n)));
  };
  list();
  $("#save").addEventListener("click", () => {
    const sc = current();
    const name = ($("#save-name").value.trim() || sc.title || "").slice(0, 80);
    if (!name) { say("Give the scenario a name first"); $("#save-name").focus(); return; }
    const all = saved();
    all[name] = sc;
    try { localStorage.setItem(KEY, JSON.stringify(all)); } catch (e) { say(`Not saved: ${e.message}`); return; }
    list();
    $("#saved").value = name;
    say(`Saved “${name}” in this browser`);
  });
  $("#load-saved").addEventListener("click", () => {
    const sc = saved()[$("#saved").value];
    if (!sc) { say("Pick a saved scenario first"); return; }
    load(sc);
    say(`Loaded “${$("#saved").value}”`);
  });
  $("#delete-saved").addEventListener("click", () => {
    const all = saved();
    const name = $("#saved").value;
    if (!(name in all)) return;
    delete all[name];
    localStorage.setItem(KEY, JSON.stringify(all));
    list();
    say(`Deleted “${name}”`);
  });
  $("#download").addEventListener("click", () => {
    const sc = current();
    const blob = new Blob([dump(sc)], { type: "application/yaml" });
    const a = h("a", { href: URL.createObjectURL(blob), download: `${fileName(sc.title || sc.system)}.yaml` });
    document.body.append(a);
    a.click();
    a.remove();
    setTimeout(() => URL.revokeObjectURL(a.href), 1000);
  });
  $("#upload").addEventListener("change", async (e) => {
    const file = e.target.files[0];
    e.target.value = "";
    if (!file) return;
    if (file.size > 100_000) { say(`${file.name} is larger than 100 000 bytes`); return; }
    const res = await fetch("/api/parse", { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ text: await file.text() }) });
    const body = await res.json().catch(() => ({}));
    if (!res.ok) { say(`${file.name}: ${body.message || body.error || `HTTP ${res.status}`}`); return; }
    if (!systems().includes(body.scenario.system)) {
      say(`${file.name}: unknown system ${JSON.stringify(body.scenario.system)}; allowed: ${systems().join(", ")}`);
      return;
    }
    load(body.scenario);
    say(`Loaded ${file.name}`);
  });
}

function fileName(text) { return String(text).toLowerCase().replace(/[^a-z0-9]+/g, "-").replace(/^-|-$/g, "").slice(0, 60) || "scenario"; }
