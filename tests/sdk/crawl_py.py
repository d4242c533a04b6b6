"""Drives Distill's crawl, batch scrape and map through the official Python
SDK (firecrawl-py) and prints what each returned as one JSON object:
{"crawl": {"status", "urls"}, "batch": {...}, "map": [urls]}.

Usage: python crawl_py.py API_URL CRAWL_URL MAP_URL BATCH_URL...
(run by tests/tests/crawl_sdks.rs with the venv `make sdk-tools` installs)."""

import json
import sys

from firecrawl import Firecrawl


def page_url(doc):
    meta = doc.metadata
    return getattr(meta, "url", None) or getattr(meta, "source_url", None)


def main():
    api_url, crawl_url, map_url, *batch_urls = sys.argv[1:]
    fc = Firecrawl(api_key="fc-distill-test", api_url=api_url)
    crawl = fc.crawl(
        crawl_url, sitemap="skip", max_discovery_depth=2, formats=["markdown"], poll_interval=1, timeout=120
    )
    batch = fc.batch_scrape(batch_urls, formats=["markdown"], poll_interval=1, wait_timeout=120)
    mapped = fc.map(map_url)
    print(
        json.dumps(
            {
                "crawl": {
                    "status": crawl.status,
                    "urls": [page_url(d) for d in crawl.data],
                    "markdown": all(bool(d.markdown) for d in crawl.data),
                },
                "batch": {"status": batch.status, "urls": [page_url(d) for d in batch.data]},
                "map": [link.url for link in mapped.links],
            }
        )
    )


if __name__ == "__main__":
    main()
