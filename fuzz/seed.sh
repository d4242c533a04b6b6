#!/usr/bin/env bash
# Seeds the fuzz corpora in $1 (target/fuzz/corpus) from the repo's fixtures
# (tests/fixtures: pages and documents up to 512 KB) and a few generated
# inputs; libFuzzer grows the corpora from there. Idempotent.
set -euo pipefail
cd "$(dirname "$0")/.."
dir=$1
fx=tests/fixtures
mkdir -p "$dir"

# seed TARGET PREFIX FILES...: copies each file (<= 512 KB) with PREFIX prepended.
seed() {
  local target=$1 prefix=$2
  shift 2
  mkdir -p "$dir/$target"
  for f in "$@"; do
    [ -f "$f" ] || continue
    [ "$(stat -c %s "$f")" -le 524288 ] || continue
    local name
    name=$(printf '%s' "$f" | tr '/' '_')
    { printf "$prefix"; cat "$f"; } > "$dir/$target/$name"
  done
}
# text TARGET NAME CONTENT: one generated seed.
text() { mkdir -p "$dir/$1"; printf '%s' "$3" > "$dir/$1/$2"; }

mapfile -t pages < <(find "$fx/site" -name '*.html' | sort)
seed html_page '\001' "${pages[@]}"
seed html_page '\003article\nnav\000' "${pages[@]:0:20}"
seed html_page '\006' "${pages[@]:0:20}"
seed markdown '' "${pages[@]}"

docs=$fx/documents
seed convert_pdf '' "$docs"/*.pdf
seed convert_docx '' "$docs"/*.docx "$docs"/*.docm
seed convert_pptx '' "$docs"/*.pptx "$docs"/*.pptm
seed convert_spreadsheet '\000' "$docs"/*.xlsx
seed convert_spreadsheet '\003' "$docs"/*.xlsm
seed convert_spreadsheet '\001' "$docs"/*.xls
seed convert_spreadsheet '\002' "$docs"/*.ods
seed convert_xlsb '' "$docs"/*.xlsb
seed convert_odf '' "$docs"/*.odt "$docs"/*.odp
seed convert_epub '' "$docs"/*.epub
seed convert_doc '' "$docs"/*.doc
seed convert_ppt '' "$docs"/*.ppt
seed convert_rtf '' "$docs"/*.rtf
seed convert_csv '\000' "$docs"/*.csv
seed convert_csv '\001' "$docs"/*.tsv

text request_json scrape '{"url":"https://example.com","formats":["markdown","html",{"type":"json","prompt":"p","schema":{"type":"object"}},{"type":"screenshot","fullPage":true}],"onlyMainContent":true,"includeTags":["article"],"excludeTags":["nav"],"waitFor":100,"timeout":30000,"headers":{"x":"y"},"actions":[{"type":"wait","milliseconds":10},{"type":"click","selector":"a"}],"location":{"country":"US","languages":["en"]},"parsers":[{"type":"pdf","maxPages":2}],"maxAge":0}'
text request_json crawl '{"url":"https://example.com","limit":10,"maxDiscoveryDepth":2,"includePaths":["^/blog"],"excludePaths":["/tag/"],"sitemap":"include","crawlEntireDomain":false,"allowSubdomains":true,"delay":1,"webhook":{"url":"https://example.com/hook","events":["page"]},"scrapeOptions":{"formats":["markdown"]}}'
text request_json batch '{"urls":["https://example.com/a","example.com/b"],"maxConcurrency":2,"ignoreInvalidURLs":true,"formats":["links"]}'
text request_json map '{"url":"https://example.com","search":"docs","limit":100,"sitemap":"only","includeSubdomains":true}'
text request_json preview '{"url":"https://example.com","prompt":"only the blog"}'
text request_json parse-options '{"formats":["markdown",{"type":"summary"}],"parsers":["pdf"],"timeout":1000}'

crlf=$'\r\n'
text parse_multipart upload "--FUZZ${crlf}Content-Disposition: form-data; name=\"file\"; filename=\"a.csv\"${crlf}Content-Type: text/csv${crlf}${crlf}a,b${crlf}1,2${crlf}--FUZZ${crlf}Content-Disposition: form-data; name=\"options\"${crlf}${crlf}{\"formats\":[\"markdown\"]}${crlf}--FUZZ--${crlf}"
text parse_multipart html-upload "--FUZZ${crlf}Content-Disposition: form-data; name=\"file\"; filename=\"page\"${crlf}Content-Type: text/html${crlf}${crlf}<p>hi</p>${crlf}--FUZZ--${crlf}"

text robots basic $'/private/x?y=1\nUser-agent: *\nDisallow: /private\nAllow: /private/ok$\nCrawl-delay: 2\n\nUser-agent: distill\nDisallow: /*.pdf$\nAllow: /\nSitemap: https://example.com/sitemap.xml\n'
text robots wildcards $'/a/b/c/d.html\nUser-agent: *\nDisallow: /*/*/*/*.html\nDisallow: /**a**b**c\n'

text sitemap urlset '<?xml version="1.0" encoding="UTF-8"?><urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><url><loc>https://example.com/a?x=1&amp;y=2</loc><lastmod>2024-01-01</lastmod></url><url><loc><![CDATA[https://example.com/b]]></loc></url></urlset>'
text sitemap index '<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://example.com/s1.xml.gz</loc></sitemap></sitemapindex>'
text sitemap prefixed '<ns:urlset xmlns:ns="http://www.sitemaps.org/schemas/sitemap/0.9"><ns:url><ns:loc> https://example.com/c </ns:loc></ns:url></ns:urlset>'
gzip -c "$dir/sitemap/urlset" > "$dir/sitemap/urlset.gz"

text llm_json plain '{"title":"A","items":[{"name":"x","price":1.5}]}'
text llm_json fenced $'```json\n{"title":"B","items":[]}\n```'
text llm_json wrong '{"items":[{"name":3}]}'
text llm_json prose 'Here is the JSON: {"title":"C"}'
echo "fuzz: corpora seeded in $dir"
