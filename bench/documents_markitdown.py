"""Converts each file named on the command line with markitdown and prints one
JSON object: {file: {"ok": bool, "markdown"|"error": str, "seconds": float}}.
Each file is converted twice; "seconds" is the second (warm) conversion.
Run by `make bench` (bench/src/documents) with the markitdown venv's python."""
import json
import sys
import time

from markitdown import MarkItDown

md = MarkItDown(enable_plugins=False)
out = {}
for path in sys.argv[1:]:
    for _ in range(2):
        started = time.perf_counter()
        try:
            text = md.convert(path).text_content or ""
            out[path] = {"ok": bool(text.strip()), "markdown": text}
        except Exception as e:  # every failure is a data point, not a crash
            out[path] = {"ok": False, "error": f"{type(e).__name__}: {e}"[:300]}
        out[path]["seconds"] = time.perf_counter() - started
print(json.dumps(out))
