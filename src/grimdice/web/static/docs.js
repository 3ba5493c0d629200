// An offline reader of /openapi.json: each operation, its request body and its responses.
const api = document.getElementById("api");

function h(tag, text, cls) {
  const e = document.createElement(tag);
  if (text !== undefined) e.textContent = text;
  if (cls) e.className = cls;
  return e;
}

function refName(schema) {
  if (!schema) return "";
  if (schema.$ref) return schema.$ref.split("/").pop();
  return JSON.stringify(schema);
}

async function show() {
  const spec = await (await fetch("/openapi.json")).json();
  api.replaceChildren();
  for (const [path, ops] of Object.entries(spec.paths)) {
    for (const [method, op] of Object.entries(ops)) {
      const sec = h("section");
      sec.append(h("h2", `${method.toUpperCase()} ${path}`));
      if (op.summary) sec.append(h("p", op.summary));
      if (op.description) sec.append(h("p", op.description, "muted"));
      const body = op.requestBody?.content?.["application/json"]?.schema;
      if (body) {
        const name = refName(body);
        sec.append(h("h3", `Request body: ${name}`));
        const schema = spec.components.schemas[name] || body;
        sec.append(h("pre", JSON.stringify(schema, null, 2)));
      }
      const list = h("ul");
      for (const [code, r] of Object.entries(op.responses || {})) list.append(h("li", `${code}: ${r.description}`));
      sec.append(h("h3", "Responses"), list);
      api.append(sec);
    }
  }
  const names = Object.keys(spec.components?.schemas || {});
  const details = h("details");
  details.append(h("summary", `Schemas (${names.length}): the scenario models of every system`));
  details.append(h("pre", JSON.stringify(spec.components.schemas, null, 2)));
  api.append(details);
}

show().catch((e) => { api.textContent = `Could not read /openapi.json: ${e.message}`; });
