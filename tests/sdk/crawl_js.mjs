// Drives Distill's crawl, batch scrape and map through the official JS SDK
// (@mendable/firecrawl-js) and prints what each returned as one JSON object:
// {"crawl": {"status", "urls", "markdown"}, "batch": {...}, "map": [urls]}.
//
// Usage: node crawl_js.mjs SDK_DIR API_URL CRAWL_URL MAP_URL BATCH_URL...
// (run by tests/tests/crawl_sdks.rs with the package `make sdk-tools` installs
// under SDK_DIR/node_modules).
import { createRequire } from "node:module";
import path from "node:path";

const [sdkDir, apiUrl, crawlUrl, mapUrl, ...batchUrls] = process.argv.slice(2);
const require = createRequire(path.join(path.resolve(sdkDir), "package.json"));
const { Firecrawl } = await import(require.resolve("@mendable/firecrawl-js"));

const fc = new Firecrawl({ apiKey: "fc-distill-test", apiUrl });
const pageUrl = (d) => d.metadata?.url ?? d.metadata?.sourceURL;
const crawl = await fc.crawl(crawlUrl, {
  sitemap: "skip",
  maxDiscoveryDepth: 2,
  scrapeOptions: { formats: ["markdown"] },
  pollInterval: 1,
  timeout: 120,
});
const batch = await fc.batchScrape(batchUrls, { options: { formats: ["markdown"] }, pollInterval: 1, timeout: 120 });
const mapped = await fc.map(mapUrl);
console.log(
  JSON.stringify({
    crawl: { status: crawl.status, urls: crawl.data.map(pageUrl), markdown: crawl.data.every((d) => !!d.markdown) },
    batch: { status: batch.status, urls: batch.data.map(pageUrl) },
    map: mapped.links.map((l) => l.url),
  }),
);
