//! Foreign content (SVG and MathML): when tokens go to the foreign content rules (with
//! the integration points), those rules (HTML breakout tags, end tags matched
//! case-insensitively), and the SVG tag-name and attribute case adjustments, MathML's
//! `definitionURL`, and the namespaced (`xlink:`, `xml:`, `xmlns`) attributes.

use html5ever::interface::TreeSink;
use html5ever::tokenizer::{StartTag, Tag};
use html5ever::{LocalName, Namespace, Prefix, QualName, local_name, ns};

use super::entries::Ns;
use super::{Builder, Flow, Step, Tok};

/// The SVG element names the tokenizer's lower case changes (lower case, proper case).
const SVG_TAGS: &[(&str, &str)] = &[
    ("altglyph", "altGlyph"),
    ("altglyphdef", "altGlyphDef"),
    ("altglyphitem", "altGlyphItem"),
    ("animatecolor", "animateColor"),
    ("animatemotion", "animateMotion"),
    ("animatetransform", "animateTransform"),
    ("clippath", "clipPath"),
    ("feblend", "feBlend"),
    ("fecolormatrix", "feColorMatrix"),
    ("fecomponenttransfer", "feComponentTransfer"),
    ("fecomposite", "feComposite"),
    ("feconvolvematrix", "feConvolveMatrix"),
    ("fediffuselighting", "feDiffuseLighting"),
    ("fedisplacementmap", "feDisplacementMap"),
    ("fedistantlight", "feDistantLight"),
    ("fedropshadow", "feDropShadow"),
    ("feflood", "feFlood"),
    ("fefunca", "feFuncA"),
    ("fefuncb", "feFuncB"),
    ("fefuncg", "feFuncG"),
    ("fefuncr", "feFuncR"),
    ("fegaussianblur", "feGaussianBlur"),
    ("feimage", "feImage"),
    ("femerge", "feMerge"),
    ("femergenode", "feMergeNode"),
    ("femorphology", "feMorphology"),
    ("feoffset", "feOffset"),
    ("fepointlight", "fePointLight"),
    ("fespecularlighting", "feSpecularLighting"),
    ("fespotlight", "feSpotLight"),
    ("fetile", "feTile"),
    ("feturbulence", "feTurbulence"),
    ("foreignobject", "foreignObject"),
    ("glyphref", "glyphRef"),
    ("lineargradient", "linearGradient"),
    ("radialgradient", "radialGradient"),
    ("textpath", "textPath"),
];

/// The SVG attribute names the tokenizer's lower case changes.
const SVG_ATTRS: &[(&str, &str)] = &[
    ("attributename", "attributeName"),
    ("attributetype", "attributeType"),
    ("basefrequency", "baseFrequency"),
    ("baseprofile", "baseProfile"),
    ("calcmode", "calcMode"),
    ("clippathunits", "clipPathUnits"),
    ("diffuseconstant", "diffuseConstant"),
    ("edgemode", "edgeMode"),
    ("filterunits", "filterUnits"),
    ("glyphref", "glyphRef"),
    ("gradienttransform", "gradientTransform"),
    ("gradientunits", "gradientUnits"),
    ("kernelmatrix", "kernelMatrix"),
    ("kernelunitlength", "kernelUnitLength"),
    ("keypoints", "keyPoints"),
    ("keysplines", "keySplines"),
    ("keytimes", "keyTimes"),
    ("lengthadjust", "lengthAdjust"),
    ("limitingconeangle", "limitingConeAngle"),
    ("markerheight", "markerHeight"),
    ("markerunits", "markerUnits"),
    ("markerwidth", "markerWidth"),
    ("maskcontentunits", "maskContentUnits"),
    ("maskunits", "maskUnits"),
    ("numoctaves", "numOctaves"),
    ("pathlength", "pathLength"),
    ("patterncontentunits", "patternContentUnits"),
    ("patterntransform", "patternTransform"),
    ("patternunits", "patternUnits"),
    ("pointsatx", "pointsAtX"),
    ("pointsaty", "pointsAtY"),
    ("pointsatz", "pointsAtZ"),
    ("preservealpha", "preserveAlpha"),
    ("preserveaspectratio", "preserveAspectRatio"),
    ("primitiveunits", "primitiveUnits"),
    ("refx", "refX"),
    ("refy", "refY"),
    ("repeatcount", "repeatCount"),
    ("repeatdur", "repeatDur"),
    ("requiredextensions", "requiredExtensions"),
    ("requiredfeatures", "requiredFeatures"),
    ("specularconstant", "specularConstant"),
    ("specularexponent", "specularExponent"),
    ("spreadmethod", "spreadMethod"),
    ("startoffset", "startOffset"),
    ("stddeviation", "stdDeviation"),
    ("stitchtiles", "stitchTiles"),
    ("surfacescale", "surfaceScale"),
    ("systemlanguage", "systemLanguage"),
    ("tablevalues", "tableValues"),
    ("targetx", "targetX"),
    ("targety", "targetY"),
    ("textlength", "textLength"),
    ("viewbox", "viewBox"),
    ("viewtarget", "viewTarget"),
    ("xchannelselector", "xChannelSelector"),
    ("ychannelselector", "yChannelSelector"),
    ("zoomandpan", "zoomAndPan"),
];

/// The lengths of a case table's names by first letter: bit `n` of entry `c - b'a'` is set
/// when a name of `n` bytes (under 32) starts with `c`. A name whose bit is clear is not in
/// the table, which most names on an SVG element (`d`, `fill`, `class`, `stroke`) are.
type Lengths = [u32; 26];

const fn lengths(table: &[(&str, &str)]) -> Lengths {
    let mut out = [0u32; 26];
    let mut i = 0;
    while i < table.len() {
        let name = table[i].0.as_bytes();
        assert!(name[0].is_ascii_lowercase() && name.len() < 32);
        out[(name[0] - b'a') as usize] |= 1 << name.len();
        i += 1;
    }
    out
}

const SVG_TAG_LENGTHS: Lengths = lengths(SVG_TAGS);
const SVG_ATTR_LENGTHS: Lengths = lengths(SVG_ATTRS);

/// Whether `name` may be in the table `lengths` was made of.
fn may_hold(lengths: &Lengths, name: &str) -> bool {
    let (Some(&first), len) = (name.as_bytes().first(), name.len()) else {
        return false;
    };
    len < 32 && first.is_ascii_lowercase() && lengths[(first - b'a') as usize] & (1 << len) != 0
}

/// The proper case of `name` in `table` (sorted by lower case name, its [`Lengths`] in
/// `lengths`), if it is there.
fn proper(table: &[(&str, &'static str)], lengths: &Lengths, name: &LocalName) -> Option<LocalName> {
    let lower: &str = name;
    if !may_hold(lengths, lower) {
        return None;
    }
    let i = table.binary_search_by(|(l, _)| (*l).cmp(lower)).ok()?;
    Some(LocalName::from(table[i].1))
}

pub(super) fn adjust_svg_attributes(tag: &mut Tag) {
    for a in &mut tag.attrs {
        if let Some(name) = proper(SVG_ATTRS, &SVG_ATTR_LENGTHS, &a.name.local) {
            a.name = QualName::new(None, ns!(), name);
        }
    }
}

pub(super) fn adjust_mathml_attributes(tag: &mut Tag) {
    for a in &mut tag.attrs {
        if &*a.name.local == "definitionurl" {
            a.name = QualName::new(None, ns!(), LocalName::from("definitionURL"));
        }
    }
}

/// The namespaced attribute an attribute name stands for on a foreign element.
fn foreign_attribute(name: &LocalName) -> Option<QualName> {
    let (prefix, ns, local): (&str, Namespace, &str) = match &**name {
        "xlink:actuate" => ("xlink", ns!(xlink), "actuate"),
        "xlink:arcrole" => ("xlink", ns!(xlink), "arcrole"),
        "xlink:href" => ("xlink", ns!(xlink), "href"),
        "xlink:role" => ("xlink", ns!(xlink), "role"),
        "xlink:show" => ("xlink", ns!(xlink), "show"),
        "xlink:title" => ("xlink", ns!(xlink), "title"),
        "xlink:type" => ("xlink", ns!(xlink), "type"),
        "xml:lang" => ("xml", ns!(xml), "lang"),
        "xml:space" => ("xml", ns!(xml), "space"),
        "xmlns" => ("", ns!(xmlns), "xmlns"),
        "xmlns:xlink" => ("xmlns", ns!(xmlns), "xlink"),
        _ => return None,
    };
    Some(QualName::new(
        Some(Prefix::from(prefix)),
        ns,
        LocalName::from(local),
    ))
}

pub(super) fn adjust_foreign_attributes(tag: &mut Tag) {
    for a in &mut tag.attrs {
        if (a.name.local.contains(':') || a.name.local == local_name!("xmlns"))
            && let Some(q) = foreign_attribute(&a.name.local)
        {
            a.name = q;
        }
    }
}

/// The HTML start tags that leave foreign content.
fn breaks_out(tag: &Tag) -> bool {
    match tag.name {
        local_name!("b")
        | local_name!("big")
        | local_name!("blockquote")
        | local_name!("body")
        | local_name!("br")
        | local_name!("center")
        | local_name!("code")
        | local_name!("dd")
        | local_name!("div")
        | local_name!("dl")
        | local_name!("dt")
        | local_name!("em")
        | local_name!("embed")
        | local_name!("h1")
        | local_name!("h2")
        | local_name!("h3")
        | local_name!("h4")
        | local_name!("h5")
        | local_name!("h6")
        | local_name!("head")
        | local_name!("hr")
        | local_name!("i")
        | local_name!("img")
        | local_name!("li")
        | local_name!("listing")
        | local_name!("menu")
        | local_name!("meta")
        | local_name!("nobr")
        | local_name!("ol")
        | local_name!("p")
        | local_name!("pre")
        | local_name!("ruby")
        | local_name!("s")
        | local_name!("small")
        | local_name!("span")
        | local_name!("strong")
        | local_name!("strike")
        | local_name!("sub")
        | local_name!("sup")
        | local_name!("table")
        | local_name!("tt")
        | local_name!("u")
        | local_name!("ul")
        | local_name!("var") => true,
        local_name!("font") => tag.attrs.iter().any(|a| {
            a.name.ns.is_empty()
                && matches!(
                    a.name.local,
                    local_name!("color") | local_name!("face") | local_name!("size")
                )
        }),
        _ => false,
    }
}

impl Builder {
    /// Whether `tok` goes to the foreign content rules.
    pub(super) fn is_foreign(&self, tok: &Tok) -> bool {
        let Some(current) = self.open.last() else {
            return false;
        };
        if current.ns == Ns::Html || matches!(tok, Tok::Eof) {
            return false;
        }
        let start = matches!(tok, Tok::Tag(t) if t.kind == StartTag);
        let text = matches!(tok, Tok::Chars(_) | Tok::Null);
        if current.mathml_text_integration_point() {
            let mark = matches!(tok, Tok::Tag(t) if matches!(t.name, local_name!("mglyph") | local_name!("malignmark")));
            if text || (start && !mark) {
                return false;
            }
        }
        if current.svg_integration_point() && (text || start) {
            return false;
        }
        if current.ns == Ns::MathMl && current.name == local_name!("annotation-xml") {
            if matches!(tok, Tok::Tag(t) if t.kind == StartTag && t.name == local_name!("svg")) {
                return false;
            }
            if text || start {
                return !self
                    .sink
                    .doc
                    .is_mathml_annotation_xml_integration_point(&current.id);
            }
        }
        true
    }

    pub(super) fn foreign(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Null => self.append_text("\u{fffd}".into()),
            Tok::Chars(t) => self.append_text(t),
            Tok::Comment(t) => self.append_comment(t),
            Tok::Eof => return Err("end of file in foreign content"),
            Tok::Tag(tag)
                if tag.kind == StartTag || matches!(tag.name, local_name!("br") | local_name!("p")) =>
            {
                if tag.kind != StartTag || breaks_out(&tag) {
                    while !self.open.last().is_some_and(|o| {
                        o.ns == Ns::Html || o.svg_integration_point() || o.mathml_text_integration_point()
                    }) {
                        self.open.pop();
                    }
                    return self.step(self.mode, Tok::Tag(tag));
                }
                self.foreign_start(tag)?;
            }
            Tok::Tag(tag) => {
                let mut i = self.open.len() - 1;
                let mut first = true;
                loop {
                    if i == 0 {
                        return Ok(Flow::Done);
                    }
                    let o = &self.open[i];
                    if !first && o.ns == Ns::Html {
                        return self.step(self.mode, Tok::Tag(tag));
                    }
                    if o.name.eq_ignore_ascii_case(&tag.name) {
                        self.open.truncate(i);
                        return Ok(Flow::Done);
                    }
                    first = false;
                    i -= 1;
                }
            }
        }
        Ok(Flow::Done)
    }

    fn foreign_start(&mut self, mut tag: Tag) -> Result<(), super::Bail> {
        let ns = self.current().ns;
        if ns == Ns::Svg {
            if let Some(name) = proper(SVG_TAGS, &SVG_TAG_LENGTHS, &tag.name) {
                tag.name = name;
            }
            adjust_svg_attributes(&mut tag);
        } else if ns == Ns::MathMl {
            adjust_mathml_attributes(&mut tag);
        }
        adjust_foreign_attributes(&mut tag);
        let push = !tag.self_closing;
        self.insert(ns, tag.name, tag.attrs, tag.had_duplicate_attributes, push);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn case_tables_are_sorted_for_binary_search() {
        assert!(super::SVG_TAGS.is_sorted_by_key(|(l, _)| *l));
        assert!(super::SVG_ATTRS.is_sorted_by_key(|(l, _)| *l));
    }

    /// The length filter passes every name of a table and rules out names that are not in it.
    #[test]
    fn length_filter_passes_every_listed_name() {
        use super::{SVG_ATTR_LENGTHS, SVG_ATTRS, SVG_TAG_LENGTHS, SVG_TAGS, may_hold};
        for (table, lengths) in [(SVG_TAGS, &SVG_TAG_LENGTHS), (SVG_ATTRS, &SVG_ATTR_LENGTHS)] {
            for (lower, _) in table {
                assert!(may_hold(lengths, lower), "{lower}");
            }
        }
        for name in [
            "d", "fill", "class", "stroke", "width", "xmlns", "", "-x", "Viewbox",
        ] {
            assert!(!may_hold(&SVG_ATTR_LENGTHS, name), "{name}");
        }
        for name in ["path", "g", "svg", "circle", "use", "symbol"] {
            assert!(!may_hold(&SVG_TAG_LENGTHS, name), "{name}");
        }
    }
}
