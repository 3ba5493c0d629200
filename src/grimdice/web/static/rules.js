// Rule pickers: a list-of-rules field gets a select of the system's rule index (GET /api/rules),
// each rule's effect as its hover text; picking one appends it to the field.
import { h } from "./form.js";

const RULE_FIELDS = /^(abilities|rules|special_rules)$/;

/** The form helper of `system` (see renderForm), or null where the system has no rule index. */
export function rulePicker(index, system) {
  const rows = index[system];
  if (!rows || !rows.length) return null;
  const groups = Object.groupBy ? Object.groupBy(rows, (r) => r["applies to"] || "other")
    : rows.reduce((g, r) => ((g[r["applies to"] || "other"] ||= []).push(r), g), {});
  return (name, input, add) => {
    if (!RULE_FIELDS.test(name)) return null;
    const pick = h("select", { class: "rule-pick", "aria-label": `Add a rule to ${name.replace(/_/g, " ")}`,
      onchange: (e) => {
        if (!e.target.value) return;
        add(e.target.value);
        e.target.value = "";
        input.focus(); // rules written "X" take a number: the player types it in the field
      } },
    h("option", { value: "" }, "+ add a rule…"),
    ...Object.entries(groups).map(([what, list]) => h("optgroup", { label: what },
      ...list.map((r) => h("option", { value: r.rule, title: r.effect + (r.verified === "yes" ? "" : " (unverified reading)") },
        r.rule)))));
    return pick;
  };
}
