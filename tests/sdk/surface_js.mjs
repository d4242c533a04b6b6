// Drives the less common calls of the official JS SDK (@mendable/firecrawl-js)
// against Distill and prints what each returned as one JSON object (the last
// line): the watcher over its WebSocket (crawl, batch, unknown job), crawl
// status pagination and cancel, active crawls, batch status/errors/cancel,
// the account calls, parse, extract against MODEL_API_URL (a server with a
// scripted model) and its refusal on API_URL (no model), and the calls of
// routes Distill does not offer (search, the v1 client), whose errors must say why.
//
// Usage: node [--experimental-websocket] surface_js.mjs SDK_DIR API_URL SITE_URL MODEL_API_URL
// (run by tests/tests/sdk_surface.rs; Node 22+ has a global WebSocket, Node 20
// needs the flag, else the watcher only polls).
import { createRequire } from "node:module";
import path from "node:path";

const [sdkDir, apiUrl, site, modelApiUrl] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(sdkDir), "package.json"));
const { Firecrawl } = await import(require.resolve("@mendable/firecrawl-js"));

const fc = new Firecrawl({ apiKey: "fc-distill-test", apiUrl });
const out = { websocket: typeof globalThis.WebSocket === "function" };
const errorOf = async (f) => {
  try {
    await f();
    return null;
  } catch (e) {
    return { message: String(e.message), status: e.status ?? null, code: e.code ?? null };
  }
};

async function watch(id, kind) {
  const w = fc.watcher(id, { kind, pollInterval: 1, timeout: 60 });
  const events = [];
  let docs = 0;
  w.on("document", () => docs++);
  w.on("snapshot", (s) => events.push(`snapshot:${s.status}`));
  w.on("done", (s) => events.push(`done:${s.status}`));
  w.on("error", (e) => events.push(`error:${e.error}`));
  await w.start();
  return { events, docs };
}

const crawl = await fc.startCrawl(`${site}/s1/`, { sitemap: "skip", maxDiscoveryDepth: 1, limit: 8 });
out.watchCrawl = await watch(crawl.id, "crawl");
const batch = await fc.startBatchScrape([0, 1, 2].map((i) => `${site}/s2/p${i}`));
out.watchBatch = await watch(batch.id, "batch");
out.watchUnknown = await watch("00000000-0000-0000-0000-000000000000", "crawl");

const whole = await fc.getCrawlStatus(crawl.id);
const capped = await fc.getCrawlStatus(crawl.id, { maxResults: 3 });
out.paging = { total: whole.total, all: whole.data.length, capped: capped.data.length };
out.errors = await fc.getCrawlErrors(crawl.id);

const slow = await fc.startCrawl(`${site}/s3/`, { sitemap: "skip", delay: 2, limit: 20 });
const active = await fc.getActiveCrawls();
out.cancel = {
  active: active.crawls.some((c) => c.id === slow.id),
  cancelled: await fc.cancelCrawl(slow.id),
  status: (await fc.getCrawlStatus(slow.id)).status,
  again: await errorOf(() => fc.cancelCrawl(crawl.id)),
};

const b = await fc.getBatchScrapeStatus(batch.id);
out.batch = {
  status: b.status,
  docs: b.data.length,
  errors: await fc.getBatchScrapeErrors(batch.id),
  cancelDone: await errorOf(() => fc.cancelBatchScrape(batch.id)),
};

out.account = {
  concurrency: (await fc.getConcurrency()).maxConcurrency,
  credits: (await fc.getCreditUsage()).remainingCredits,
  tokens: (await fc.getTokenUsage()).remainingTokens,
  queue: (await fc.getQueueStatus()).maxConcurrency,
  creditsHistorical: (await fc.getCreditUsageHistorical(true)).periods.length,
  tokensHistorical: (await fc.getTokenUsageHistorical(false)).periods.length,
};
const html = "<html><body><h1>Uploaded</h1><p>A page.</p></body></html>";
out.parse = (await fc.parse({ filename: "up.html", data: Buffer.from(html), contentType: "text/html" })).markdown;

const withModel = new Firecrawl({ apiKey: "fc-distill-test", apiUrl: modelApiUrl });
const titles = { type: "object", properties: { titles: { type: "array", items: { type: "string" } } } };
const done = await withModel.extract({
  urls: [`${site}/s2/p0`, `${site}/s2/p1`],
  prompt: "the page titles",
  schema: titles,
  showSources: true,
  pollInterval: 1,
  timeout: 60,
});
const started = await withModel.startExtract({ urls: [`${site}/s2/p0`], prompt: "the page titles" });
out.extract = {
  status: done.status,
  data: done.data,
  sources: done.sources,
  creditsUsed: done.creditsUsed,
  tokensUsed: done.tokensUsed,
  expiresAt: typeof done.expiresAt === "string",
  started: [started.success, typeof started.id === "string"],
  polled: ["processing", "completed"].includes((await withModel.getExtractStatus(started.id)).status),
};

out.unsupported = {
  search: await errorOf(() => fc.search("lichens", { limit: 2 })),
  extract: await errorOf(() => fc.extract({ urls: [`${site}/s2/p0`], prompt: "the title" })),
  v1Scrape: await errorOf(() => fc.v1.scrapeUrl(`${site}/s2/p0`, { formats: ["markdown"] })),
};
console.log(JSON.stringify(out));
