// A small YAML writer for scenarios (block mappings and lists; reading YAML is the server's job).
const RESERVED = /^(true|false|yes|no|on|off|null|y|n|~)$/i;
const PLAIN = /^[A-Za-z][A-Za-z0-9 _.()'\/+!,-]*$/;

export function scalar(v) {
  if (v === null || v === undefined) return "null";
  if (typeof v === "number" || typeof v === "boolean") return String(v);
  const s = String(v);
  if (PLAIN.test(s) && !RESERVED.test(s) && !s.endsWith(" ") && !s.includes(": ") && !s.includes(" #")
      && !s.includes(",")) return s;
  return JSON.stringify(s);
}

function isScalar(v) { return v === null || typeof v !== "object"; }

function flow(v) {
  if (Array.isArray(v)) return "[" + v.map(flow).join(", ") + "]";
  if (isScalar(v)) return scalar(v);
  return "{" + Object.entries(v).map(([k, x]) => `${scalar(k)}: ${flow(x)}`).join(", ") + "}";
}

function block(v, indent) {
  const pad = " ".repeat(indent);
  if (Array.isArray(v)) {
    if (v.length === 0) return " []";
    if (v.every(isScalar) || v.every((x) => Array.isArray(x) && x.every(isScalar))) return " " + flow(v);
    return "\n" + v.map((x) => {
      if (isScalar(x) || Array.isArray(x)) return `${pad}- ${flow(x)}`;
      const body = block(x, indent + 2).replace(/^\n/, "");
      return `${pad}- ${body.slice(indent + 2)}`;
    }).join("\n");
  }
  if (isScalar(v)) return " " + scalar(v);
  const entries = Object.entries(v);
  if (entries.length === 0) return " {}";
  return "\n" + entries.map(([k, x]) => `${pad}${scalar(k)}:${block(x, indent + 2)}`).join("\n");
}

/** The scenario as YAML text. */
export function dump(value) {
  return block(value, 0).replace(/^\n/, "") + "\n";
}
