// The branding snapshot (fetch/browser/branding.rs): computed styles of the
// loaded page, read in the page, returned as plain JSON. Colours stay as the
// browser computes them (rgb()/rgba()); the `branding` plugin names roles.
(() => {
  const MAX_ELEMENTS = 1500;
  const style = (el) => getComputedStyle(el);
  const visible = (el) => {
    const r = el.getBoundingClientRect();
    const s = style(el);
    return r.width > 0 && r.height > 0 && s.visibility !== "hidden" && s.display !== "none" && s.opacity !== "0";
  };
  const all = (selector) => Array.from(document.querySelectorAll(selector)).filter(visible);
  const text = (el) => (el.innerText || el.value || el.getAttribute("aria-label") || "").trim().replace(/\s+/g, " ").slice(0, 80);
  const typeOf = (el) => {
    if (!el) return null;
    const s = style(el);
    return { fontFamily: s.fontFamily, fontSize: s.fontSize, fontWeight: s.fontWeight, lineHeight: s.lineHeight, color: s.color };
  };
  const box = (el) => {
    const s = style(el);
    const r = el.getBoundingClientRect();
    return {
      text: text(el),
      tag: el.tagName.toLowerCase(),
      classes: typeof el.className === "string" ? el.className : "",
      background: s.backgroundColor,
      color: s.color,
      borderColor: s.borderTopColor,
      borderWidth: s.borderTopWidth,
      borderStyle: s.borderTopStyle,
      borderRadius: s.borderTopLeftRadius,
      fontFamily: s.fontFamily,
      fontSize: s.fontSize,
      fontWeight: s.fontWeight,
      padding: s.padding,
      area: Math.round(r.width * r.height),
      top: Math.round(r.top + window.scrollY),
    };
  };

  // Colour use: backgrounds weighted by area, text colours by text length.
  const backgrounds = {};
  const texts = {};
  const radii = {};
  const spacings = {};
  const families = {};
  const elements = Array.from(document.body ? document.body.querySelectorAll("*") : []).slice(0, MAX_ELEMENTS);
  for (const el of elements) {
    if (!visible(el)) continue;
    const s = style(el);
    const r = el.getBoundingClientRect();
    const bg = s.backgroundColor;
    if (bg && !/rgba\(\d+, \d+, \d+, 0\)|transparent/.test(bg)) {
      backgrounds[bg] = (backgrounds[bg] || 0) + Math.round(r.width * r.height);
    }
    const own = Array.from(el.childNodes)
      .filter((n) => n.nodeType === 3)
      .map((n) => n.textContent.trim())
      .join("").length;
    if (own > 0) {
      texts[s.color] = (texts[s.color] || 0) + own;
      families[s.fontFamily] = (families[s.fontFamily] || 0) + own;
    }
    const radius = s.borderTopLeftRadius;
    if (radius && radius !== "0px") radii[radius] = (radii[radius] || 0) + 1;
    for (const v of [s.paddingTop, s.paddingLeft, s.marginTop, s.marginBottom, s.gap]) {
      if (v && /^\d+(\.\d+)?px$/.test(v) && v !== "0px") spacings[v] = (spacings[v] || 0) + 1;
    }
  }

  // Custom properties declared on :root (same-origin sheets only).
  const variables = {};
  for (const sheet of Array.from(document.styleSheets)) {
    let rules;
    try {
      rules = sheet.cssRules;
    } catch (e) {
      continue;
    }
    for (const rule of Array.from(rules || [])) {
      if (!rule.style || !/^(:root|html|body)$/.test((rule.selectorText || "").trim())) continue;
      for (const name of Array.from(rule.style)) {
        if (name.startsWith("--") && Object.keys(variables).length < 200) {
          variables[name] = getComputedStyle(document.documentElement).getPropertyValue(name).trim();
        }
      }
    }
  }

  const buttonSelector =
    'button, input[type="submit"], input[type="button"], a[role="button"], [class*="btn"], [class*="button"], [class*="Button"]';
  const buttons = all(buttonSelector)
    .filter((el) => text(el).length > 0 && text(el).length <= 60)
    .slice(0, 30)
    .map(box);
  const inputs = all(
    'input:not([type="hidden"]):not([type="submit"]):not([type="button"]):not([type="checkbox"]):not([type="radio"]), textarea, select'
  )
    .slice(0, 10)
    .map(box);
  const links = {};
  for (const a of all("a[href]").slice(0, 200)) {
    if (a.matches(buttonSelector)) continue;
    const c = style(a).color;
    links[c] = (links[c] || 0) + 1;
  }

  // The logo: an image or svg in the header (or marked "logo"), nearest the top.
  const logoCandidates = all(
    'header img, header svg, nav img, nav svg, [class*="logo" i] img, [class*="logo" i] svg, [id*="logo" i] img, [id*="logo" i] svg, img[class*="logo" i], img[id*="logo" i], img[alt*="logo" i], svg[class*="logo" i]'
  );
  let logo = null;
  for (const el of logoCandidates) {
    const r = el.getBoundingClientRect();
    if (r.width < 16 || r.height < 8) continue;
    const link = el.closest("a[href]");
    const svg = el.tagName.toLowerCase() === "svg";
    const markup = svg ? new XMLSerializer().serializeToString(el) : "";
    logo = {
      kind: svg ? "svg" : "img",
      src: svg ? (markup.length <= 20000 ? "data:image/svg+xml;utf8," + encodeURIComponent(markup) : null) : el.currentSrc || el.src,
      alt: svg ? (el.getAttribute("aria-label") || (el.querySelector("title") || {}).textContent || "") : el.alt || "",
      href: link ? link.href : null,
      width: Math.round(r.width),
      height: Math.round(r.height),
      top: Math.round(r.top + window.scrollY),
    };
    break;
  }

  const meta = (selector) => {
    const el = document.querySelector(selector);
    return el ? el.getAttribute("content") : null;
  };
  const icon = document.querySelector('link[rel~="icon" i], link[rel="apple-touch-icon" i]');
  const first = (selector) => all(selector)[0] || null;
  const rootStyle = style(document.documentElement);
  const bodyStyle = document.body ? style(document.body) : rootStyle;

  return {
    url: location.href,
    title: document.title,
    siteName: meta('meta[property="og:site_name"]'),
    ogImage: meta('meta[property="og:image"]') || meta('meta[name="og:image"]') || meta('meta[name="twitter:image"]'),
    favicon: icon ? icon.href : new URL("/favicon.ico", location.href).href,
    themeColor: meta('meta[name="theme-color"]'),
    colorSchemeMeta: meta('meta[name="color-scheme"]'),
    colorSchemeCss: rootStyle.colorScheme || "",
    prefersDark: matchMedia("(prefers-color-scheme: dark)").matches,
    background: { body: bodyStyle.backgroundColor, root: rootStyle.backgroundColor },
    body: typeOf(document.body),
    paragraph: typeOf(first("p")),
    h1: typeOf(first("h1")),
    h2: typeOf(first("h2")),
    h3: typeOf(first("h3")),
    code: typeOf(first("code, pre")),
    small: typeOf(first("small")),
    backgrounds,
    texts,
    links,
    families,
    radii,
    spacings,
    variables,
    buttons,
    inputs,
    logo,
  };
})()
