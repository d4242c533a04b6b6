"""An MCP client (the official Python SDK, `mcp` from PyPI) talking to
Distill's /mcp endpoint, used by tests/tests/operator_surface.rs.

usage: mcp_client.py SERVER_URL PAGE_URL FILE_PATH

Lists the tools, calls `scrape` on PAGE_URL, `parse` on FILE_PATH, a scrape
with an invalid argument, `map` on PAGE_URL, and `crawl` from PAGE_URL
polled with `crawl_status` until it ends; prints one JSON report on stdout.
"""

import asyncio
import base64
import json
import os
import sys

from mcp import Client


def result_json(result):
    return {
        "isError": bool(result.is_error),
        "text": "".join(getattr(block, "text", "") for block in result.content),
        "structured": result.structured_content,
    }


async def main(server, page_url, file_path):
    async with Client(server + "/mcp") as client:
        tools = await client.list_tools()
        with open(file_path, "rb") as f:
            content = base64.b64encode(f.read()).decode()
        scraped = await client.call_tool("scrape", {"url": page_url, "formats": ["markdown"]})
        parsed = await client.call_tool(
            "parse", {"filename": os.path.basename(file_path), "content": content}
        )
        invalid = await client.call_tool("scrape", {"url": page_url, "timeout": 5})
        mapped = await client.call_tool("map", {"url": page_url})
        crawl = await client.call_tool("crawl", {"url": page_url, "limit": 2})
        status = None
        crawl_id = (crawl.structured_content or {}).get("id")
        for _ in range(120):
            if not crawl_id:
                break
            status = await client.call_tool("crawl_status", {"id": crawl_id})
            if (status.structured_content or {}).get("status") != "scraping":
                break
            await asyncio.sleep(0.5)
        report = {
            "tools": {t.name: t.input_schema for t in tools.tools},
            "scrape": result_json(scraped),
            "parse": result_json(parsed),
            "invalid": result_json(invalid),
            "map": result_json(mapped),
            "crawl": result_json(crawl),
            "crawl_status": result_json(status) if status else None,
        }
        print(json.dumps(report))


asyncio.run(main(*sys.argv[1:4]))
