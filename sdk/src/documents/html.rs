//! HTML output helpers for converters: escaping, safe link targets, a page wrapper.

/// Escapes text for HTML element content.
pub fn esc(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for c in s.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            // Control characters other than tab/newline have no place in HTML.
            c if (c as u32) < 0x20 && c != '\t' && c != '\n' => {}
            c => out.push(c),
        }
    }
    out
}

/// A link target safe to put in `href`: http(s), mailto, tel, ftp, fragments and
/// relative references; `None` for script/data URLs and the like.
pub fn safe_href(url: &str) -> Option<String> {
    let u = url.trim();
    if u.is_empty() {
        return None;
    }
    let lower = u.to_ascii_lowercase();
    if let Some(colon) = lower.find(':') {
        let scheme = &lower[..colon];
        let is_scheme = scheme
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || "+-.".contains(c));
        if is_scheme && !["http", "https", "mailto", "tel", "ftp"].contains(&scheme) {
            return None;
        }
    }
    Some(esc(u))
}

/// Wraps a body in a minimal HTML document with a title.
pub fn page(title: Option<&str>, body: &str) -> String {
    let mut out = String::with_capacity(body.len() + 200);
    out.push_str("<!DOCTYPE html><html><head><meta charset=\"utf-8\">");
    if let Some(t) = title {
        out.push_str("<title>");
        out.push_str(&esc(t));
        out.push_str("</title>");
    }
    out.push_str("</head><body>\n");
    out.push_str(body);
    out.push_str("\n</body></html>\n");
    out
}

/// Opens a slide's `<section>` with its heading: `<h2>Slide N: title</h2>`, or
/// `<h2>Slide N</h2>` without a title (the presentation converters' layout).
pub fn open_slide(out: &mut String, n: usize, title: Option<&str>) {
    out.push_str("<section>\n");
    match title {
        Some(t) => out.push_str(&format!("<h2>Slide {n}: {}</h2>\n", esc(t))),
        None => out.push_str(&format!("<h2>Slide {n}</h2>\n")),
    }
}

/// Writes nested `<ul>`/`<ol>` lists from a flat run of list paragraphs, each
/// with a depth (1 = top level) and a kind, as Word and PowerPoint store them.
/// A deeper item opens a list inside the open item; a shallower one closes
/// back to its depth; a kind change at the same depth starts a new list.
#[derive(Default)]
pub struct ListNest {
    levels: Vec<ListLevel>,
}

struct ListLevel {
    ordered: bool,
    li_open: bool,
}

impl ListNest {
    /// Appends one item (already-rendered HTML) at `depth` (≥ 1).
    pub fn item(&mut self, out: &mut String, depth: usize, ordered: bool, content: &str) {
        let depth = depth.max(1);
        self.close(out, depth);
        if self.levels.len() == depth && self.levels.last().is_some_and(|l| l.ordered != ordered) {
            self.close(out, depth - 1);
        }
        while self.levels.len() < depth {
            if let Some(top) = self.levels.last_mut()
                && !top.li_open
            {
                out.push_str("<li>");
                top.li_open = true;
            }
            out.push_str(if ordered { "<ol>\n" } else { "<ul>\n" });
            self.levels.push(ListLevel {
                ordered,
                li_open: false,
            });
        }
        let top = self.levels.last_mut().expect("at least one level");
        if top.li_open {
            out.push_str("</li>\n");
        }
        out.push_str("<li>");
        out.push_str(content);
        top.li_open = true;
    }

    /// Closes every list deeper than `depth` (0 closes them all).
    pub fn close(&mut self, out: &mut String, depth: usize) {
        while self.levels.len() > depth {
            let l = self.levels.pop().expect("a level");
            if l.li_open {
                out.push_str("</li>");
            }
            out.push_str(if l.ordered { "</ol>\n" } else { "</ul>\n" });
        }
    }
}

/// A lower-case roman numeral (endnote labels: i, ii, iii, iv, ...); empty for 0.
pub fn roman(mut n: usize) -> String {
    const NUMERALS: [(usize, &str); 13] = [
        (1000, "m"),
        (900, "cm"),
        (500, "d"),
        (400, "cd"),
        (100, "c"),
        (90, "xc"),
        (50, "l"),
        (40, "xl"),
        (10, "x"),
        (9, "ix"),
        (5, "v"),
        (4, "iv"),
        (1, "i"),
    ];
    let mut s = String::new();
    for (value, numeral) in NUMERALS {
        while n >= value {
            s.push_str(numeral);
            n -= value;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn roman_numerals() {
        let got: Vec<String> = [1, 2, 4, 9, 14, 40, 90, 400, 1994]
            .into_iter()
            .map(roman)
            .collect();
        assert_eq!(got, ["i", "ii", "iv", "ix", "xiv", "xl", "xc", "cd", "mcmxciv"]);
        assert_eq!(roman(0), "");
    }

    #[test]
    fn slide_sections() {
        let mut out = String::new();
        open_slide(&mut out, 2, Some("R&D <plan>"));
        open_slide(&mut out, 3, None);
        assert_eq!(
            out,
            "<section>\n<h2>Slide 2: R&amp;D &lt;plan&gt;</h2>\n<section>\n<h2>Slide 3</h2>\n"
        );
    }

    #[test]
    fn escaping_drops_control_characters() {
        assert_eq!(esc("a<b>&\"c\"\u{1}\t\n"), "a&lt;b&gt;&amp;&quot;c&quot;\t\n");
    }
}
