// The JS SDK's watcher on a server with API keys: its WebSocket cannot send
// headers, so the key travels as the subprotocol. Prints the events of a
// watch with the right key, with a wrong one and with another valid key
// (not the job's) as one JSON object.
//
// Usage: node [--experimental-websocket] watch_key_js.mjs SDK_DIR API_URL KEY BATCH_URL OTHER_KEY
// (run by tests/tests/sdk_surface.rs).
import { createRequire } from "node:module";
import path from "node:path";

const [sdkDir, apiUrl, key, url, otherKey] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(sdkDir), "package.json"));
const { Firecrawl } = await import(require.resolve("@mendable/firecrawl-js"));

const job = await new Firecrawl({ apiKey: key, apiUrl }).startBatchScrape([url]);
const out = {};
for (const [name, k] of [["right", key], ["wrong", "fc-not-a-key"], ["other", otherKey]]) {
  const w = new Firecrawl({ apiKey: k, apiUrl }).watcher(job.id, { kind: "batch", pollInterval: 1, timeout: 30 });
  const events = [];
  w.on("document", () => events.push("document"));
  w.on("done", (s) => events.push(`done:${s.status}`));
  w.on("error", (e) => events.push(`error:${e.error}`));
  await w.start();
  out[name] = events;
}
console.log(JSON.stringify(out));
