// "Vary this field": copies of the scenario with other values of one field, added to the comparison.
import { MAX_COMPARE } from "./compare.js";
import { h, parseText, schemaAt, setAt, words } from "./form.js";

const $ = (sel) => document.querySelector(sel);

/** The form's fields a comparison can vary (number and text inputs, selects), by dotted path. */
export function varyFields(form) {
  const fields = [...form.querySelectorAll("input[data-path]:not([type=checkbox]), select[data-path]")]
    .filter((f) => !/(^|\.)(name|title)$/.test(f.dataset.path));
  const keep = $("#vary-field").value;
  $("#vary-field").replaceChildren(...fields.map((f) => h("option", { value: f.dataset.path }, words(f.dataset.path))));
  // keep the field chosen before; else the first one holding a number (a characteristic)
  const numeric = fields.find((f) => f.tagName === "INPUT" && /^[-+]?\d/.test(f.value));
  if (fields.some((f) => f.dataset.path === keep)) $("#vary-field").value = keep;
  else if (numeric) $("#vary-field").value = numeric.dataset.path;
}

/** "Vary this field": the current result and one copy per value, calculated and compared. */
export async function vary({ state, runOne, addCompare, redrawCompare, updateLink }) {
  const dotted = $("#vary-field").value;
  const values = $("#vary-values").value.split(",").map((v) => v.trim()).filter(Boolean);
  if (!dotted || !values.length || !state.result) return;
  const path = dotted.split(".").map((p) => (/^\d+$/.test(p) ? Number(p) : p));
  const r = state.result;
  const target = $("#target").value || null;
  if (!state.compare.length) addCompare();
  $("#status").textContent = `Calculating ${values.length} copies…`;
  for (const text of values.slice(0, MAX_COMPARE)) {
    const scenario = structuredClone(r.scenario);
    const root = state.systems[scenario.system].schema;
    setAt(scenario, path, parseText(root, schemaAt(root, path), text)); // as the form reads it
    const res = await runOne(scenario, r.simulate, r.seed);
    if (!res.ok) { $("#status").textContent = `${words(dotted)} = ${text}: ${res.data.message || res.data.error}`; return; }
    const view = target ? (res.data.targets || {})[target] : res.data;
    if (!view) continue;
    if (state.compare.length >= MAX_COMPARE) state.compare.shift();
    state.compare.push({ label: `${words(dotted.split(".").pop())} = ${text}`, data: view, scenario,
      simulate: r.simulate, seed: res.data.seed ?? r.seed, target });
  }
  $("#status").textContent = "Done: the copies are in the comparison";
  redrawCompare();
  updateLink();
  $("#compare").scrollIntoView({ block: "nearest" });
}

