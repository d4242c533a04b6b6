//! The spec's lists of tag names that more than one rule (or insertion mode) names, each
//! written once: as a pattern macro, so a mode's `match` on the tag name stays one
//! decision tree, and as a predicate where a rule tests a name.

use html5ever::LocalName;

/// The start tags the "in body", "after head" and "in template" modes process using the
/// rules for "in head".
macro_rules! head_names {
    () => {
        html5ever::local_name!("base")
            | html5ever::local_name!("basefont")
            | html5ever::local_name!("bgsound")
            | html5ever::local_name!("link")
            | html5ever::local_name!("meta")
            | html5ever::local_name!("noframes")
            | html5ever::local_name!("script")
            | html5ever::local_name!("style")
            | html5ever::local_name!("template")
            | html5ever::local_name!("title")
    };
}
pub(crate) use head_names;

/// `h1` to `h6`.
macro_rules! heading_names {
    () => {
        html5ever::local_name!("h1")
            | html5ever::local_name!("h2")
            | html5ever::local_name!("h3")
            | html5ever::local_name!("h4")
            | html5ever::local_name!("h5")
            | html5ever::local_name!("h6")
    };
}
pub(crate) use heading_names;

pub(crate) fn heading(name: &LocalName) -> bool {
    matches!(*name, heading_names!())
}

/// The formatting elements but `a` and `nobr` (their start tags have rules of their own).
macro_rules! formatting_names {
    () => {
        html5ever::local_name!("b")
            | html5ever::local_name!("big")
            | html5ever::local_name!("code")
            | html5ever::local_name!("em")
            | html5ever::local_name!("font")
            | html5ever::local_name!("i")
            | html5ever::local_name!("s")
            | html5ever::local_name!("small")
            | html5ever::local_name!("strike")
            | html5ever::local_name!("strong")
            | html5ever::local_name!("tt")
            | html5ever::local_name!("u")
    };
}
pub(crate) use formatting_names;

/// The table sections: `tbody`, `tfoot`, `thead`.
macro_rules! section_names {
    () => {
        html5ever::local_name!("tbody") | html5ever::local_name!("tfoot") | html5ever::local_name!("thead")
    };
}
pub(crate) use section_names;

/// The parts of a table below it: caption, column group and column, sections, row and
/// cells. Their start tags close a caption or a cell (and a row or a section but for what
/// those hold); with `body` and `html`, their end tags are ignored in the table modes
/// (each mode handles its own before).
macro_rules! table_part_names {
    () => {
        html5ever::local_name!("caption")
            | html5ever::local_name!("col")
            | html5ever::local_name!("colgroup")
            | $crate::tree_builder::tag_sets::section_names!()
            | html5ever::local_name!("td")
            | html5ever::local_name!("th")
            | html5ever::local_name!("tr")
    };
}
pub(crate) use table_part_names;

/// The end tags the table modes ignore (after each mode's own).
macro_rules! table_ignored_end_names {
    () => {
        html5ever::local_name!("body")
            | html5ever::local_name!("html")
            | $crate::tree_builder::tag_sets::table_part_names!()
    };
}
pub(crate) use table_ignored_end_names;

/// The elements text and misplaced tags inside a table are foster-parented around:
/// `table`, its sections and `tr`.
pub(crate) fn table_frame(name: &LocalName) -> bool {
    matches!(
        *name,
        html5ever::local_name!("table") | html5ever::local_name!("tr") | section_names!()
    )
}
