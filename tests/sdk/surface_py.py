"""Drives the less common calls of the official Python SDK (firecrawl-py)
against Distill and prints what each returned as one JSON object (the last
line): the watcher over its WebSocket (crawl, batch, unknown job), crawl
status pages and cancel, active crawls, batch status/errors/cancel, the
account calls, parse and its formats, the async client, and extract (`extract`,
`start_extract`, `get_extract_status`) against MODEL_API_URL, a server with a
scripted model, and on API_URL, which has none, the refusal; and the calls
of routes Distill does not offer (search, the v1 client), whose errors must
say why.

Usage: python surface_py.py API_URL SITE_URL MODEL_API_URL
(run by tests/tests/sdk_surface.rs with the venv `make sdk-tools` installs;
SITE_URL is the generated crawl site, /s1/ has 30 pages)."""

import asyncio
import json
import sys
import warnings

from firecrawl import AsyncFirecrawl, Firecrawl
from firecrawl.v2.types import PaginationConfig
from firecrawl.v2.watcher import Watcher

warnings.simplefilter("ignore")
API, SITE, MODEL_API = sys.argv[1:4]
fc = Firecrawl(api_key="fc-distill-test", api_url=API)
out = {}

# The watcher falls back to HTTP polling when its WebSocket fails: count polls.
polls = []
_poll_once = Watcher._poll_status_once


async def _counting_poll(self):
    polls.append(1)
    return await _poll_once(self)


Watcher._poll_status_once = _counting_poll


def error_of(call):
    try:
        call()
    except Exception as e:  # the SDK's typed error, as a user sees it
        return f"{type(e).__name__}: {e}"
    return None


def watch(job_id, kind):
    w = fc.watcher(job_id, kind=kind, poll_interval=1, timeout=60)
    events = []
    w.add_listener(lambda job: events.append({"status": job.status, "docs": len(job.data)}))
    w.add_event_listener("done", lambda d: events.append({"event": "done", "docs": len(d["data"])}))
    w.add_event_listener("error", lambda d: events.append({"event": "error", "error": d.get("error")}))
    polls.clear()
    w.start()
    w._thread.join(70)
    return {"events": events, "polls": len(polls), "status": w.status}


crawl = fc.start_crawl(SITE + "/s1/", sitemap="skip", max_discovery_depth=1, limit=8)
out["watch_crawl"] = watch(crawl.id, "crawl")
batch = fc.start_batch_scrape([SITE + f"/s2/p{i}" for i in range(3)])
out["watch_batch"] = watch(batch.id, "batch")
out["watch_unknown"] = watch("00000000-0000-0000-0000-000000000000", "crawl")

# Status pages: one page of two documents, its `next`, and the next page.
whole = fc.get_crawl_status(crawl.id)
first = fc.get_crawl_status_page(f"{API}/v2/crawl/{crawl.id}?skip=0&limit=2")
second = fc.get_crawl_status_page(first.next)
single = fc.get_crawl_status(crawl.id, pagination_config=PaginationConfig(auto_paginate=False))
out["paging"] = {
    "total": whole.total,
    "all": len(whole.data),
    "first": len(first.data),
    "next": first.next,
    "second": len(second.data),
    "single": len(single.data),
    "errors": fc.get_crawl_errors(crawl.id).model_dump(),
}

# A slow crawl: listed as active, then cancelled; cancelling it again is False.
slow = fc.start_crawl(SITE + "/s3/", sitemap="skip", delay=2, limit=20)
active = fc.get_active_crawls()
out["cancel"] = {
    "active": any(c.id == slow.id for c in active.crawls),
    "cancelled": fc.cancel_crawl(slow.id),
    "status": fc.get_crawl_status(slow.id).status,
    "again": fc.cancel_crawl(crawl.id),
    "unknown_status": error_of(lambda: fc.get_crawl_status("00000000-0000-0000-0000-000000000000")),
}

b = fc.get_batch_scrape_status(batch.id)
page = fc.get_batch_scrape_status_page(f"{API}/v2/batch/scrape/{batch.id}?skip=1")
out["batch"] = {
    "status": b.status,
    "docs": len(b.data),
    "page": len(page.data),
    "errors": fc.get_batch_scrape_errors(batch.id).model_dump(),
    "cancel_done": error_of(lambda: fc.cancel_batch_scrape(batch.id)),
}

out["account"] = {
    "concurrency": fc.get_concurrency().max_concurrency,
    "credits": fc.get_credit_usage().remaining_credits,
    "tokens": fc.get_token_usage().remaining_tokens,
    "queue": fc.get_queue_status().max_concurrency,
    "credits_historical": len(fc.v2.get_credit_usage_historical(by_api_key=True).periods),
    "tokens_historical": len(fc.v2.get_token_usage_historical().periods),
    "parse_formats": [f.format for f in fc.get_parse_formats()][:1],
    "parse": fc.parse(b"<html><body><h1>Uploaded</h1><p>A page.</p></body></html>", filename="up.html").markdown,
}

m = Firecrawl(api_key="fc-distill-test", api_url=MODEL_API)
TITLES = {"type": "object", "properties": {"titles": {"type": "array", "items": {"type": "string"}}}}
done = m.extract(
    [SITE + "/s2/p0", SITE + "/s2/p1"], prompt="the page titles", schema=TITLES, show_sources=True,
    poll_interval=1, timeout=60,
)
started = m.start_extract([SITE + "/s2/p0", "not a url"], prompt="the page titles", ignore_invalid_urls=True)
out["extract"] = {
    "status": done.status,
    "data": done.data,
    "sources": done.sources,
    "credits": done.credits_used,
    "tokens": done.tokens_used,
    "expires": done.expires_at is not None,
    "started": [started.success, bool(started.id)],
    "polled": m.get_extract_status(started.id).status in ("processing", "completed"),
}

out["unsupported"] = {
    "search": error_of(lambda: fc.search("lichens", limit=2)),
    "extract": error_of(lambda: fc.extract([SITE + "/s2/p0"], prompt="the title")),
    "extract_status": error_of(lambda: fc.get_extract_status("00000000-0000-0000-0000-000000000000")),
    "v1_scrape": error_of(lambda: fc.v1.scrape_url(SITE + "/s2/p0")),
}


async def async_client():
    a = AsyncFirecrawl(api_key="fc-distill-test", api_url=API)
    crawled = await a.crawl(url=SITE + "/s4/", sitemap="skip", max_discovery_depth=1, limit=4, poll_interval=1, timeout=60)
    batched = await a.batch_scrape([SITE + "/s5/p0", SITE + "/s5/p1"], poll_interval=1, wait_timeout=60)
    mapped = await a.map(SITE + "/")
    started = await a.start_crawl(SITE + "/s6/", sitemap="skip", limit=3)
    seen = []
    async for snapshot in a.watcher(started.id, kind="crawl", poll_interval=1, timeout=60):
        seen.append(snapshot.status)
        if snapshot.status in ("completed", "failed", "cancelled"):
            break
    return {
        "crawl": [crawled.status, len(crawled.data)],
        "batch": [batched.status, len(batched.data)],
        "map": len(mapped.links) > 0,
        "watch": seen[-1:],
        "credits": (await a.get_credit_usage()).remaining_credits,
        "search": await _async_error(a.search("lichens")),
    }


async def _async_error(coro):
    try:
        await coro
    except Exception as e:
        return f"{type(e).__name__}: {e}"
    return None


out["async"] = asyncio.run(async_client())
print(json.dumps(out, default=str))
