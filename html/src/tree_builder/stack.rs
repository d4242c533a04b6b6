//! The stack of open elements: its entries (node, namespace, name), the scopes the rules
//! check an element in, the sets of names those rules close or stop at (html5ever's sets,
//! which are the spec's with its own few differences), and the popping steps.

use dom_query::NodeId;
use html5ever::{LocalName, local_name};

use super::Builder;
use super::entries::Open;

/// The kinds of scope an element is looked for in.
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    Default,
    ListItem,
    Button,
    Table,
}

/// Whether `o` ends a search in `scope`.
fn bounds(o: &Open, scope: Scope) -> bool {
    match scope {
        Scope::Table => matches!(
            o.html(),
            Some(&local_name!("html") | &local_name!("table") | &local_name!("template"))
        ),
        _ => {
            let extra = matches!(
                (scope, o.html()),
                (Scope::ListItem, Some(&local_name!("ol") | &local_name!("ul")))
                    | (Scope::Button, Some(&local_name!("button")))
            );
            extra
                || matches!(
                    o.html(),
                    Some(
                        &local_name!("applet")
                            | &local_name!("caption")
                            | &local_name!("html")
                            | &local_name!("table")
                            | &local_name!("td")
                            | &local_name!("th")
                            | &local_name!("marquee")
                            | &local_name!("object")
                            | &local_name!("select")
                            | &local_name!("template")
                    )
                )
                || o.mathml_text_integration_point()
                || o.svg_integration_point()
        }
    }
}

/// The elements closed by "generate implied end tags".
pub(super) fn implied_end(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("dd")
            | local_name!("dt")
            | local_name!("li")
            | local_name!("option")
            | local_name!("optgroup")
            | local_name!("p")
            | local_name!("rb")
            | local_name!("rp")
            | local_name!("rt")
            | local_name!("rtc")
    )
}

/// html5ever's "special" elements (HTML ones only).
pub(super) fn special(name: &LocalName) -> bool {
    matches!(
        *name,
        local_name!("address")
            | local_name!("applet")
            | local_name!("area")
            | local_name!("article")
            | local_name!("aside")
            | local_name!("base")
            | local_name!("basefont")
            | local_name!("bgsound")
            | local_name!("blockquote")
            | local_name!("body")
            | local_name!("br")
            | local_name!("button")
            | local_name!("caption")
            | local_name!("center")
            | local_name!("col")
            | local_name!("colgroup")
            | local_name!("dd")
            | local_name!("details")
            | local_name!("dir")
            | local_name!("div")
            | local_name!("dl")
            | local_name!("dt")
            | local_name!("embed")
            | local_name!("fieldset")
            | local_name!("figcaption")
            | local_name!("figure")
            | local_name!("footer")
            | local_name!("form")
            | local_name!("frame")
            | local_name!("frameset")
            | local_name!("h1")
            | local_name!("h2")
            | local_name!("h3")
            | local_name!("h4")
            | local_name!("h5")
            | local_name!("h6")
            | local_name!("head")
            | local_name!("header")
            | local_name!("hgroup")
            | local_name!("hr")
            | local_name!("html")
            | local_name!("iframe")
            | local_name!("img")
            | local_name!("input")
            | local_name!("isindex")
            | local_name!("li")
            | local_name!("link")
            | local_name!("listing")
            | local_name!("main")
            | local_name!("marquee")
            | local_name!("menu")
            | local_name!("meta")
            | local_name!("nav")
            | local_name!("noembed")
            | local_name!("noframes")
            | local_name!("noscript")
            | local_name!("object")
            | local_name!("ol")
            | local_name!("p")
            | local_name!("param")
            | local_name!("plaintext")
            | local_name!("pre")
            | local_name!("script")
            | local_name!("section")
            | local_name!("select")
            | local_name!("source")
            | local_name!("style")
            | local_name!("summary")
            | local_name!("table")
            | local_name!("tbody")
            | local_name!("td")
            | local_name!("template")
            | local_name!("textarea")
            | local_name!("tfoot")
            | local_name!("th")
            | local_name!("thead")
            | local_name!("title")
            | local_name!("tr")
            | local_name!("track")
            | local_name!("ul")
            | local_name!("wbr")
            | local_name!("xmp")
    )
}

impl Builder {
    pub(super) fn current(&self) -> &Open {
        // The stack is never empty where the modes ask for the current node.
        self.open.last().expect("no current node")
    }

    pub(super) fn current_is(&self, name: &LocalName) -> bool {
        self.open.last().is_some_and(|o| o.is(name))
    }

    /// Whether an entry matching `pred` is in `scope`.
    pub(super) fn in_scope_by(&self, scope: Scope, pred: impl Fn(&Open) -> bool) -> bool {
        for o in self.open.iter().rev() {
            if pred(o) {
                return true;
            }
            if bounds(o, scope) {
                return false;
            }
        }
        false
    }

    pub(super) fn in_scope(&self, scope: Scope, name: &LocalName) -> bool {
        self.in_scope_by(scope, |o| o.is(name))
    }

    pub(super) fn on_stack(&self, id: NodeId) -> bool {
        self.open.iter().rev().any(|o| o.id == id)
    }

    pub(super) fn any_open(&self, name: &LocalName) -> bool {
        self.open.iter().any(|o| o.is(name))
    }

    /// Pops while the current node is an HTML element named as `set` says.
    pub(super) fn pop_while(&mut self, set: impl Fn(&LocalName) -> bool) {
        while let Some(o) = self.open.last() {
            match o.html() {
                Some(name) if set(name) => {
                    self.open.pop();
                }
                _ => return,
            }
        }
    }

    /// Generate implied end tags.
    pub(super) fn implied_ends(&mut self) {
        self.pop_while(implied_end);
    }

    /// Generate implied end tags, except for `except`.
    pub(super) fn implied_ends_except(&mut self, except: &LocalName) {
        self.pop_while(|n| n != except && implied_end(n));
    }

    /// Pops until an entry matching `pred` has been popped.
    pub(super) fn pop_until_by(&mut self, pred: impl Fn(&Open) -> bool) {
        while let Some(o) = self.open.pop() {
            if pred(&o) {
                return;
            }
        }
    }

    pub(super) fn pop_until(&mut self, name: &LocalName) {
        self.pop_until_by(|o| o.is(name));
    }

    /// Pops until the current node is an HTML element named as `set` says.
    pub(super) fn pop_to_current(&mut self, set: impl Fn(&LocalName) -> bool) {
        while let Some(o) = self.open.last() {
            if o.html().is_some_and(&set) {
                return;
            }
            self.open.pop();
        }
    }

    /// Close a `p` element.
    pub(super) fn close_p(&mut self) {
        let p = local_name!("p");
        self.implied_ends_except(&p);
        self.pop_until(&p);
    }

    /// Whether a `p` element is in button scope (no walk while none is open).
    pub(super) fn p_in_button_scope(&self) -> bool {
        self.open.any_paragraph() && self.in_scope(Scope::Button, &local_name!("p"))
    }

    pub(super) fn close_p_in_button_scope(&mut self) {
        if self.p_in_button_scope() {
            self.close_p();
        }
    }

    pub(super) fn remove_from_stack(&mut self, id: NodeId) {
        if let Some(i) = self.open.iter().rposition(|o| o.id == id) {
            self.open.remove(i);
        }
    }
}
