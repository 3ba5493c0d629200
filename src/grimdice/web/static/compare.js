// Compare up to four results side by side: one chart, a table with the difference from the first
// entry and P(at least N) columns, editable labels.
import { atLeast, COLORS, lastShown, lineChart, pct } from "./charts.js";
import { h, words } from "./form.js";
import { highest, stagesOf, stats } from "./result.js";

export const MAX_COMPARE = 4;
const AT_LEAST_COLUMNS = 6; // P(≥1) .. P(≥6) at most

const $ = (sel) => document.querySelector(sel);

function swatch(color) {
  const e = h("span", { class: "swatch", "aria-hidden": "true" });
  e.style.background = color; // CSSOM, allowed by the page's Content-Security-Policy
  return e;
}

/** Draw the comparison of `entries` ({label, data, ...}); `changed()` after a label edit or removal. */
export function drawCompare(entries, changed, width) {
  $("#compare").hidden = entries.length === 0;
  $("#compare-list").replaceChildren(...entries.map((c, i) => h("li", {},
    swatch(COLORS[i]), h("label", { for: `compare-label-${i}`, class: "sr-only" }, `Label of entry ${i + 1}`),
    h("input", { id: `compare-label-${i}`, class: "compare-label", value: c.label, onchange: (e) => {
      c.label = e.target.value.trim() || c.label;
      drawCompare(entries, changed, width);
      changed();
    } }),
    h("button", { type: "button", class: "small", "aria-label": `Remove ${c.label} from the comparison`,
      onclick: () => { entries.splice(i, 1); drawCompare(entries, changed, width); changed(); } }, "Remove"))));
  const names = [...new Set(entries.flatMap((c) => stagesOf(c.data).map(([n]) => n)))];
  const sel = $("#compare-stage");
  const keep = sel.value || "damage";
  sel.replaceChildren(...names.map((n) => h("option", { value: n }, words(n))));
  sel.value = names.includes(keep) ? keep : names[0] || "";
  const stage = sel.value;
  const kindAtLeast = document.querySelector("input[name=compare-kind]:checked").value === "atleast";
  const series = entries.map((c, i) => ({ c, i, st: c.data[stage] })).filter((x) => x.st)
    .map(({ c, i, st }) => ({ label: `${i + 1}. ${c.label}`, color: COLORS[i],
      values: kindAtLeast ? atLeast(st.pmf) : st.pmf, last: lastShown(st.pmf) }));
  $("#compare-chart").replaceChildren(series.length ? lineChart(series, {
    xlabel: words(stage), ylabel: kindAtLeast ? "P(at least N)" : "P(exactly N)", width: width($("#compare-chart")) }) : "");
  $("#compare-table").replaceChildren(compareTable(entries, stage));
}

function compareTable(entries, stage) {
  const top = Math.min(AT_LEAST_COLUMNS, Math.max(1, ...entries.map((c) => (c.data[stage] ? highest(c.data[stage].pmf) : 0))));
  const ks = Array.from({ length: top }, (_, i) => i + 1);
  const base = entries[0] && entries[0].data[stage] ? stats(entries[0].data[stage].pmf).mean : null;
  const rows = entries.map((c, i) => {
    const st = c.data[stage];
    const s = st ? stats(st.pmf) : null;
    const al = st ? atLeast(st.pmf) : [];
    const diff = s && base !== null && i > 0 ? `${s.mean - base >= 0 ? "+" : "−"}${Math.abs(s.mean - base).toFixed(3)}` : "—";
    return h("tr", {}, h("th", { scope: "row" }, `${i + 1}. ${c.label}`), h("td", {}, s ? s.mean.toFixed(3) : "—"),
      h("td", {}, diff), h("td", {}, s ? s.sd.toFixed(3) : "—"), ...ks.map((k) => h("td", {}, st ? pct(al[k] ?? 0) : "—")));
  });
  const head = ["entry", "mean", "vs 1.", "sd", ...ks.map((k) => `P(≥${k})`)];
  return h("div", { class: "table-wrap" }, h("table", {}, h("caption", {}, `${words(stage)} of each entry`),
    h("thead", {}, h("tr", {}, ...head.map((c) => h("th", { scope: "col" }, c)))), h("tbody", {}, ...rows)));
}
