"""Distill format plugin `keywords`, written in Python (componentize-py).

Renders the most frequent meaningful words of the page's cleaned text:
{"keywords": [{"word": "rust", "count": 12}, ...], "words": 1234}.
Option: {"top": N} (1..100, default 10).

It shows that the plugin ABI is language-neutral: the same WIT world
(`distill:plugin@0.2.0`, world `format`) that Rust plugins implement through
the SDK, implemented here from componentize-py's generated bindings.

componentize-py snapshots the interpreter after importing this module: every
standard-library module used at run time must be imported at the top.
"""

import heapq  # noqa: F401  (used by Counter.most_common; imported here so it is bundled)
import json
import re
import traceback
from collections import Counter
from html.parser import HTMLParser

from componentize_py_types import Err
from wit_world import exports
from wit_world.imports import log, types

STOPWORDS = frozenset(
    """a about above after again against all am an and any are as at be because been
    before being below between both but by can did do does doing down during each few
    for from further had has have having he her here hers herself him himself his how i
    if in into is it its itself just me more most my myself no nor not now of off on
    once only or other our ours ourselves out over own same she should so some such than
    that the their theirs them themselves then there these they this those through to
    too under until up very was we were what when where which while who whom why will
    with you your yours yourself yourselves also may one two new use used using""".split()
)

WORD = re.compile(r"[^\W\d_]{3,}", re.UNICODE)


class TextOf(HTMLParser):
    """Collects the text of an HTML document."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.parts = []

    def handle_data(self, data):
        self.parts.append(data)


def keywords(html, top):
    parser = TextOf()
    parser.feed(html)
    words = [w.lower() for w in WORD.findall(" ".join(parser.parts))]
    counts = Counter(w for w in words if w not in STOPWORDS)
    return {
        "keywords": [{"word": w, "count": c} for w, c in counts.most_common(top)],
        "words": len(words),
    }


class Render(exports.Render):
    def info(self):
        return types.PluginInfo(
            name="keywords",
            version="0.1.0",
            description="Most frequent meaningful words of the page (a plugin written in Python).",
            formats=["keywords"],
            extensions=[],
            content_types=[],
            capabilities=[],
            memory_limit_mib=128,
            timeout_ms=None,
        )

    def render(self, format, page, options):
        if format != "keywords":
            raise Err(types.PluginError_InvalidOptions(f"this plugin renders 'keywords', not '{format}'"))
        try:
            opts = json.loads(options or "{}")
        except ValueError as e:
            raise Err(types.PluginError_InvalidOptions(f"options are not JSON: {e}"))
        top = opts.get("top", 10)
        if not isinstance(top, int) or isinstance(top, bool) or not 1 <= top <= 100:
            raise Err(types.PluginError_InvalidOptions("'top' must be an integer from 1 to 100"))
        log.log(log.Level.DEBUG, f"keywords: {len(page.cleaned_html)} bytes of HTML")
        try:
            return json.dumps(keywords(page.cleaned_html, top))
        except Exception as e:  # report, rather than trap, on a bug
            raise Err(types.PluginError_Failed("".join(traceback.format_exception(e))[-800:]))
