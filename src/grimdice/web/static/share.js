// The page state in the URL fragment: "#z" + base64url(deflate-raw(JSON)), or "#j" + base64url(JSON)
// where the browser has no CompressionStream. A link reproduces the scenario, run options and comparison.

function toBase64url(bytes) {
  let s = "";
  for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(s).replace(/\+/g, "-").replace(/\//g, "_").replace(/=+$/, "");
}

function fromBase64url(text) {
  const s = atob(text.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(s, (c) => c.charCodeAt(0));
}

async function through(bytes, stream) {
  const out = new Response(new Blob([bytes]).stream().pipeThrough(stream));
  return new Uint8Array(await out.arrayBuffer());
}

export async function encode(state) {
  const bytes = new TextEncoder().encode(JSON.stringify(state));
  if (typeof CompressionStream === "function") {
    return "z" + toBase64url(await through(bytes, new CompressionStream("deflate-raw")));
  }
  return "j" + toBase64url(bytes);
}

export async function decode(fragment) {
  const text = fragment.replace(/^#/, "");
  if (!text) return null;
  const kind = text[0];
  let bytes = fromBase64url(text.slice(1));
  if (kind === "z") bytes = await through(bytes, new DecompressionStream("deflate-raw"));
  else if (kind !== "j") throw new Error("unknown link format");
  return JSON.parse(new TextDecoder().decode(bytes));
}
