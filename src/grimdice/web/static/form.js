// A form generated from a system's scenario JSON Schema (pydantic's model_json_schema()).
// The scenario object is the single source of truth: inputs write into it at their dotted path
// (the same path a ScenarioError names), structural edits re-render.

export function words(name) { return String(name).replace(/_/g, " "); }

/** Resolve $ref and nullable anyOf into {schema, nullable}. */
export function resolve(root, schema) {
  let s = schema || {};
  let nullable = false;
  for (let guard = 0; guard < 20; guard++) {
    if (s.$ref) {
      const name = s.$ref.split("/").pop();
      const { $ref, ...rest } = s;
      s = { ...(root.$defs || {})[name], ...rest };
      continue;
    }
    if (s.anyOf) {
      const opts = s.anyOf.filter((o) => o.type !== "null");
      if (opts.length < s.anyOf.length) nullable = true;
      if (opts.length === 1) {
        const { anyOf, ...rest } = s;
        s = { ...rest, ...opts[0], default: s.default };
        if (s.default === undefined) delete s.default;
        continue;
      }
    }
    break;
  }
  return { schema: s, nullable };
}

function kind(root, s) {
  if (s.const !== undefined) return "const";
  if (s.enum) return "enum";
  if (s.anyOf) {
    const types = s.anyOf.map((o) => resolve(root, o).schema.type);
    return types.every((t) => ["integer", "number", "string", "boolean"].includes(t)) ? "scalar" : "raw";
  }
  if (s.type === "object" && s.properties) return "object";
  if (s.type === "array" && !s.prefixItems) {
    const item = resolve(root, s.items || {}).schema;
    if (item.type === "object" && item.properties) return "list";
    if (item.type === undefined || ["string", "integer", "number"].includes(item.type)) return "tags";
    return "raw";
  }
  if (s.type === "boolean") return "boolean";
  if (["integer", "number", "string"].includes(s.type)) return "scalar";
  return "raw";
}

function onlyString(root, s) {
  if (s.anyOf) return s.anyOf.every((o) => resolve(root, o).schema.type === "string");
  return s.type === "string";
}

/** Whether the field takes a D6 roll to reach ("3+": a 3 or more): a whole number within 2..7, not
 * a characteristic such as Horus Heresy's BS 1..10, where "3+" would be read wrongly. */
function takesRoll(root, s) {
  const options = s.anyOf ? s.anyOf.map((o) => resolve(root, o).schema) : [s];
  return options.some((o) => {
    if (o.type !== "integer") return false;
    const lo = o.minimum ?? o.ge, hi = o.maximum ?? o.le;
    return lo !== undefined && hi !== undefined && lo >= 2 && hi <= 7;
  });
}

/** A value typed into a text input, as the schema would want it (the server validates). */
export function parseText(root, s, text) {
  const t = text.trim();
  if (t === "") return undefined;
  if (onlyString(root, s)) return text;
  if (/^[-+]?\d+(\.\d+)?$/.test(t)) return Number(t);
  // a roll as the books write it ("3+": a 3 or more) where the field takes a number
  if (/^\d+\+$/.test(t) && takesRoll(root, s)) return Number(t.slice(0, -1));
  if (/^[[{]/.test(t)) { try { return JSON.parse(t); } catch { /* keep the text */ } }
  if (t === "true" || t === "false") return t === "true";
  return t;
}

function showValue(v) {
  if (v === undefined || v === null) return "";
  return typeof v === "object" ? JSON.stringify(v) : String(v);
}

function hint(s, nullable) {
  const parts = [];
  const lo = s.minimum ?? s.ge ?? (s.exclusiveMinimum !== undefined ? `>${s.exclusiveMinimum}` : undefined);
  const hi = s.maximum ?? s.le;
  if (lo !== undefined && hi !== undefined) parts.push(`${lo}–${hi}`);
  else if (lo !== undefined) parts.push(`≥ ${lo}`);
  else if (hi !== undefined) parts.push(`≤ ${hi}`);
  if (s.default !== undefined && s.default !== null && s.default !== "" && typeof s.default !== "object") {
    parts.push(`default ${s.default}`);
  } else if (nullable) parts.push("optional");
  return parts.join(", ");
}

/** A sensible new value for a schema: defaults, required fields filled. */
export function blank(root, schema) {
  const { schema: s } = resolve(root, schema);
  if (s.default !== undefined && s.default !== null) return structuredClone(s.default);
  const k = kind(root, s);
  if (k === "object") {
    const out = {};
    for (const name of s.required || []) out[name] = blank(root, s.properties[name]);
    return out;
  }
  if (k === "list" || k === "tags") {
    return s.minItems ? Array.from({ length: s.minItems }, () => blank(root, s.items || {})) : [];
  }
  if (s.prefixItems) return s.prefixItems.map((p) => blank(root, p));
  if (k === "const") return s.const;
  if (k === "enum") return s.enum[0];
  if (k === "boolean") return false;
  if (s.anyOf) return blank(root, s.anyOf.find((o) => o.type !== "null") || {});
  if (s.type === "integer" || s.type === "number") {
    const lo = s.minimum ?? s.ge ?? 1;
    return Math.max(1, lo);
  }
  if (s.type === "string") return "";
  return null;
}

/** The schema of the value at `path` (keys and list indices) of a scenario of schema `root`. */
export function schemaAt(root, path) {
  let s = resolve(root, root).schema;
  for (const p of path) {
    if (typeof p === "number") s = resolve(root, s.items || {}).schema;
    else {
      const sub = (s.properties || {})[p];
      if (!sub) return {};
      s = resolve(root, sub).schema;
    }
  }
  return s;
}

export function getAt(obj, path) {
  return path.reduce((o, p) => (o === undefined || o === null ? undefined : o[p]), obj);
}

export function setAt(obj, path, value) {
  let o = obj;
  for (let i = 0; i < path.length - 1; i++) {
    if (o[path[i]] === undefined || o[path[i]] === null || typeof o[path[i]] !== "object") {
      o[path[i]] = typeof path[i + 1] === "number" ? [] : {};
    }
    o = o[path[i]];
  }
  const last = path[path.length - 1];
  if (value === undefined) {
    if (Array.isArray(o)) o.splice(last, 1); else delete o[last];
  } else o[last] = value;
}

export function h(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === "class") e.className = v;
    else if (k.startsWith("on")) e.addEventListener(k.slice(2), v);
    else e.setAttribute(k, v === true ? "" : v);
  }
  for (const c of children) if (c !== undefined && c !== null) e.append(c);
  return e;
}

const id = (path) => "f-" + path.join("-").replace(/[^A-Za-z0-9_-]/g, "_");

/**
 * Render the form for `root` (a scenario schema) editing `state.data` into `container`.
 * `changed()` is called after every edit; `helper(name, input, add)`, if given, may return an element
 * shown under a list-of-words input (e.g. a rule picker; `add(word)` appends a word to it).
 */
/** Whether a field whose schema says `applies: {FIELD: [values]}` applies to the scenario `data`:
 * each top-level FIELD (or its default) is one of its values. */
export function applies(root, data, when) {
  const top = resolve(root, root).schema.properties || {};
  return Object.entries(when || {}).every(([k, values]) => {
    const v = data && data[k] !== undefined ? data[k] : top[k] && top[k].default;
    return values.includes(v);
  });
}

function holdsValue(value, s) {
  if (value === undefined || value === null) return false;
  if (Array.isArray(value)) return value.length > 0;
  return value !== s.default;
}

export function renderForm(container, root, state, changed, helper = null) {
  const rerender = () => { renderForm(container, root, state, changed, helper); changed(); };
  const controls = new Set(); // top-level fields other fields' `applies` name

  function field(name, schema, path, required) {
    const { schema: s, nullable } = resolve(root, schema);
    const k = kind(root, s);
    const value = getAt(state.data, path);
    const dotted = path.join(".");
    const fid = id(path);
    const label = words(name) + (required ? " *" : "");
    const title = s.description || undefined;
    if (k === "const") return null;
    const when = schema.applies || s.applies;
    let away = null; // a field that does not apply but holds a value: shown, saying so
    if (when) {
      Object.keys(when).forEach((c) => controls.add(c));
      if (!applies(root, state.data, when)) {
        if (!holdsValue(value, s)) return null; // a section or field that does not apply is hidden
        away = `does not apply to ${Object.keys(when).map((c) => `${words(c)} ${getAt(state.data, [c]) ?? ""}`).join(", ")}`;
      }
    }
    if (k === "object") {
      if (nullable && (value === undefined || value === null)) {
        return h("fieldset", { "data-path": dotted, class: "wide unset" },
          h("legend", {}, words(name)),
          h("button", { type: "button", class: "small", onclick: () => { setAt(state.data, path, blank(root, s)); rerender(); } },
            `Add ${words(name)}`));
      }
      const box = h("fieldset", { "data-path": dotted, class: "wide" });
      const legend = h("legend", { title }, words(name), away ? h("span", { class: "hint" }, ` (${away})`) : null);
      if (nullable) {
        legend.append(h("button", { type: "button", class: "small", onclick: () => { setAt(state.data, path, undefined); rerender(); } },
          `Remove ${words(name)}`));
      }
      box.append(legend, objectBody(s, path));
      return box;
    }
    if (k === "list") {
      const items = Array.isArray(value) ? value : [];
      const item = resolve(root, s.items).schema;
      // an optional list left empty is shown as its Add button only (a section not in use)
      const unset = items.length === 0 && !required;
      const box = h("fieldset", { "data-path": dotted, class: unset ? "wide unset" : "wide" },
        h("legend", { title }, words(name), away ? h("span", { class: "hint" }, ` (${away})`) : null));
      items.forEach((it, i) => {
        const sub = h("fieldset", { "data-path": `${dotted}.${i}`, class: "list-item" });
        const nm = it && typeof it === "object" && it.name ? `: ${it.name}` : "";
        const canRemove = items.length > (s.minItems || 0) || nullable;
        sub.append(h("legend", {}, `${words(name)} ${i + 1}${nm}`,
          h("button", { type: "button", class: "small", disabled: !canRemove, "aria-label": `Remove ${words(name)} ${i + 1}`,
            onclick: () => {
              items.splice(i, 1);
              if (items.length === 0 && nullable) setAt(state.data, path, undefined);
              rerender();
            } }, "Remove")));
        sub.append(objectBody(item, [...path, i]));
        box.append(sub);
      });
      const full = s.maxItems !== undefined && items.length >= s.maxItems;
      box.append(h("button", { type: "button", class: "small", disabled: full, onclick: () => {
        const next = items.length ? structuredClone(items[items.length - 1]) : blank(root, item);
        setAt(state.data, path, [...items, next]);
        rerender();
      } }, `Add ${words(name).replace(/s$/, "")}`));
      return box;
    }
    if (k === "boolean") {
      const checked = value === undefined ? !!s.default : !!value;
      return h("div", { class: "field check" },
        h("input", { type: "checkbox", id: fid, "data-path": dotted, checked, title,
          onchange: (e) => { setAt(state.data, path, e.target.checked); changed(); } }),
        h("label", { for: fid, title }, label), away ? h("span", { class: "hint" }, away) : null);
    }
    let input;
    if (k === "enum") {
      input = h("select", { id: fid, "data-path": dotted, title, onchange: (e) => {
        setAt(state.data, path, e.target.value === "" ? undefined : e.target.value);
        if (path.length === 1 && controls.has(name)) { // the fields that apply change with it
          rerender();
          const again = container.querySelector(`[data-path="${CSS.escape(dotted)}"]`);
          if (again) again.focus();
        } else changed();
      } });
      const dflt = s.default !== undefined && s.default !== null ? `(default: ${s.default})` : "(none)";
      if (!required || value === undefined) input.append(h("option", { value: "" }, dflt));
      for (const v of s.enum) input.append(h("option", { value: v, selected: v === value }, String(v)));
    } else {
      const tags = k === "tags";
      const shown = tags && Array.isArray(value) ? value.join(", ") : showValue(value);
      input = h("input", { id: fid, "data-path": dotted, value: shown, title, autocomplete: "off",
        placeholder: tags ? "comma-separated" : (s.default !== undefined && s.default !== null && typeof s.default !== "object" ? String(s.default) : ""),
        oninput: (e) => {
          const text = e.target.value;
          let v;
          if (tags) v = text.trim() === "" ? undefined : text.split(",").map((x) => x.trim()).filter(Boolean);
          else v = parseText(root, s, text);
          setAt(state.data, path, v);
          changed();
        } });
    }
    const note = [away, hint(s, nullable)].filter(Boolean).join("; ");
    const wide = k === "tags" || k === "raw" || name === "name" || name === "title" || s.type === "string";
    const add = (word) => {
      const list = Array.isArray(getAt(state.data, path)) ? getAt(state.data, path) : [];
      setAt(state.data, path, [...list, word]);
      input.value = [...list, word].join(", ");
      changed();
    };
    const extra = k === "tags" && helper ? helper(name, input, add) : null;
    return h("div", { class: "field" + (wide ? " wide" : "") },
      h("label", { for: fid, title }, label), input, note ? h("span", { class: "hint" }, note) : null, extra);
  }

  function objectBody(s, path) {
    const grid = h("div", { class: "grid" });
    const req = new Set(s.required || []);
    for (const [name, sub] of Object.entries(s.properties || {})) {
      const f = field(name, sub, [...path, name], req.has(name));
      if (f) grid.append(f);
    }
    return grid;
  }

  const { schema: top } = resolve(root, root);
  container.replaceChildren(objectBody(top, []));
}

/** The element showing dotted `field`, or the closest enclosing one (with the part not found). */
export function elementFor(container, field) {
  const parts = String(field || "").split(".").filter((x) => x !== "");
  for (let n = parts.length; n > 0; n--) {
    const path = parts.slice(0, n).join(".");
    const el = container.querySelector(`[data-path="${CSS.escape(path)}"]`);
    if (el) return el;
  }
  return null;
}
