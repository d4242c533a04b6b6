//! The table modes: in table (with implied `tbody`, `tr`, `colgroup`; what a table cannot
//! hold is foster-parented), in table text, in
//! caption, in column group, in table body, in row, in cell; and resetting the insertion
//! mode after a table closes.

use html5ever::tendril::StrTendril;
use html5ever::tokenizer::{EndTag, StartTag, Tag};
use html5ever::{LocalName, local_name};

use super::entries::Entry;
use super::stack::Scope;
use super::tag_sets::{section_names, table_frame, table_ignored_end_names, table_part_names};
use super::{Builder, Flow, Mode, Step, Tok, any_not_ws, split_ws};

fn table_context(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("table") | local_name!("template") | local_name!("html")
    )
}

fn body_context(n: &LocalName) -> bool {
    matches!(
        *n,
        section_names!() | local_name!("template") | local_name!("html")
    )
}

fn row_context(n: &LocalName) -> bool {
    matches!(
        *n,
        local_name!("tr") | local_name!("template") | local_name!("html")
    )
}

fn cell(n: &LocalName) -> bool {
    matches!(*n, local_name!("td") | local_name!("th"))
}

fn start(tag: &Tag) -> bool {
    tag.kind == StartTag
}

impl Builder {
    pub(super) fn in_table(&mut self, tok: Tok) -> Step {
        let tag = match tok {
            Tok::Chars(_) | Tok::Null => {
                let outer = self.current().html().is_some_and(table_frame);
                if !outer {
                    return self.foster_in_body(tok);
                }
                self.orig = self.mode;
                return Ok(Flow::Again(Mode::InTableText, tok));
            }
            Tok::Comment(t) => {
                self.append_comment(t);
                return Ok(Flow::Done);
            }
            Tok::Eof => return self.in_body(Tok::Eof),
            Tok::Tag(tag) => tag,
        };
        match (start(&tag), &tag.name) {
            (true, &local_name!("caption")) => {
                self.pop_to_current(table_context);
                self.active.push(Entry::Marker);
                self.insert_tag(tag);
                self.mode = Mode::InCaption;
            }
            (true, &local_name!("colgroup")) => {
                self.pop_to_current(table_context);
                self.insert_tag(tag);
                self.mode = Mode::InColumnGroup;
            }
            (true, &local_name!("col")) => {
                self.pop_to_current(table_context);
                self.insert_phantom(local_name!("colgroup"));
                return Ok(Flow::Again(Mode::InColumnGroup, Tok::Tag(tag)));
            }
            (true, &(section_names!())) => {
                self.pop_to_current(table_context);
                self.insert_tag(tag);
                self.mode = Mode::InTableBody;
            }
            (true, &local_name!("td") | &local_name!("th") | &local_name!("tr")) => {
                self.pop_to_current(table_context);
                self.insert_phantom(local_name!("tbody"));
                return Ok(Flow::Again(Mode::InTableBody, Tok::Tag(tag)));
            }
            (true, &local_name!("table")) => {
                if self.in_scope(Scope::Table, &local_name!("table")) {
                    self.pop_until(&local_name!("table"));
                    let mode = self.reset_mode()?;
                    return Ok(Flow::Again(mode, Tok::Tag(tag)));
                }
            }
            (false, &local_name!("table")) => {
                if self.in_scope(Scope::Table, &local_name!("table")) {
                    self.pop_until(&local_name!("table"));
                    self.mode = self.reset_mode()?;
                }
            }
            (false, &(table_ignored_end_names!())) => {}
            (true, &local_name!("style") | &local_name!("script")) | (_, &local_name!("template")) => {
                return self.in_head(Tok::Tag(tag));
            }
            (true, &local_name!("input")) => {
                let hidden = tag
                    .attrs
                    .iter()
                    .find(|a| a.name.ns.is_empty() && a.name.local == local_name!("type"))
                    .is_some_and(|a| a.value.eq_ignore_ascii_case("hidden"));
                if !hidden {
                    return self.foster_in_body(Tok::Tag(tag));
                }
                self.insert_void(tag);
            }
            (true, &local_name!("form")) => {
                if self.form.is_none() && !self.any_open(&local_name!("template")) {
                    self.form = Some(self.insert_void(tag));
                }
            }
            _ => return self.foster_in_body(Tok::Tag(tag)),
        }
        Ok(Flow::Done)
    }

    pub(super) fn in_table_text(&mut self, tok: Tok) -> Step {
        match tok {
            Tok::Null => Ok(Flow::Done),
            Tok::Chars(t) => {
                self.pending.push(t);
                Ok(Flow::Done)
            }
            tok => {
                let pending = std::mem::take(&mut self.pending);
                if pending.iter().any(|t| any_not_ws(t)) {
                    for t in pending {
                        self.foster_in_body(Tok::Chars(t))?;
                    }
                } else {
                    for t in pending {
                        self.append_text(t);
                    }
                }
                Ok(Flow::Again(self.orig, tok))
            }
        }
    }

    pub(super) fn in_caption(&mut self, tok: Tok) -> Step {
        let Tok::Tag(tag) = tok else {
            return self.in_body(tok);
        };
        let closes = match (start(&tag), &tag.name) {
            (true, &(table_part_names!())) | (false, &local_name!("table") | &local_name!("caption")) => true,
            // (The caption end tag is taken above.)
            (false, &(table_ignored_end_names!())) => return Ok(Flow::Done),
            _ => false,
        };
        if !closes {
            return self.in_body(Tok::Tag(tag));
        }
        let caption = local_name!("caption");
        if !self.in_scope(Scope::Table, &caption) {
            return Ok(Flow::Done);
        }
        self.implied_ends();
        self.pop_until(&caption);
        self.clear_to_marker();
        if tag.kind == EndTag && tag.name == caption {
            self.mode = Mode::InTable;
            return Ok(Flow::Done);
        }
        Ok(Flow::Again(Mode::InTable, Tok::Tag(tag)))
    }

    pub(super) fn in_column_group(&mut self, tok: Tok) -> Step {
        let tok = match tok {
            Tok::Chars(t) => {
                let (ws, rest) = split_ws(t);
                if let Some(ws) = ws {
                    self.append_text(ws);
                }
                match rest {
                    None => return Ok(Flow::Done),
                    Some(rest) => Tok::Chars(rest),
                }
            }
            Tok::Comment(t) => {
                self.append_comment(t);
                return Ok(Flow::Done);
            }
            Tok::Eof => return self.in_body(Tok::Eof),
            Tok::Tag(tag) => match (start(&tag), &tag.name) {
                (true, &local_name!("html")) => return self.in_body(Tok::Tag(tag)),
                (true, &local_name!("col")) => {
                    self.insert_void(tag);
                    return Ok(Flow::Done);
                }
                (false, &local_name!("colgroup")) => {
                    if self.current_is(&local_name!("colgroup")) {
                        self.open.pop();
                        self.mode = Mode::InTable;
                    }
                    return Ok(Flow::Done);
                }
                (false, &local_name!("col")) => return Ok(Flow::Done),
                (_, &local_name!("template")) => return self.in_head(Tok::Tag(tag)),
                _ => Tok::Tag(tag),
            },
            tok => tok,
        };
        if self.current_is(&local_name!("colgroup")) {
            self.open.pop();
            return Ok(Flow::Again(Mode::InTable, tok));
        }
        // Ignored (a template's column group): the text's non-whitespace runs only; the
        // whitespace between them is inserted, run by run as html5ever splits text.
        if let Tok::Chars(text) = tok {
            let ws: String = text
                .chars()
                .filter(|c| matches!(c, ' ' | '\t' | '\n' | '\x0c' | '\r'))
                .collect();
            if !ws.is_empty() {
                self.append_text(StrTendril::from(ws));
            }
        }
        Ok(Flow::Done)
    }

    pub(super) fn in_table_body(&mut self, tok: Tok) -> Step {
        let Tok::Tag(tag) = tok else {
            return self.in_table(tok);
        };
        match (start(&tag), &tag.name) {
            (true, &local_name!("tr")) => {
                self.pop_to_current(body_context);
                self.insert_tag(tag);
                self.mode = Mode::InRow;
            }
            (true, &local_name!("th") | &local_name!("td")) => {
                self.pop_to_current(body_context);
                self.insert_phantom(local_name!("tr"));
                return Ok(Flow::Again(Mode::InRow, Tok::Tag(tag)));
            }
            (false, &(section_names!())) => {
                if self.in_scope(Scope::Table, &tag.name) {
                    self.pop_to_current(body_context);
                    self.open.pop();
                    self.mode = Mode::InTable;
                }
            }
            // (The row and cell start tags are taken above.)
            (true, &(table_part_names!())) | (false, &local_name!("table")) => {
                let outer = |o: &super::entries::Open| {
                    o.html().is_some_and(|n| {
                        matches!(
                            *n,
                            local_name!("table") | local_name!("tbody") | local_name!("tfoot")
                        )
                    })
                };
                if self.in_scope_by(Scope::Table, outer) {
                    self.pop_to_current(body_context);
                    self.open.pop();
                    return Ok(Flow::Again(Mode::InTable, Tok::Tag(tag)));
                }
            }
            // (The section end tags are taken above.)
            (false, &(table_ignored_end_names!())) => {}
            _ => return self.in_table(Tok::Tag(tag)),
        }
        Ok(Flow::Done)
    }

    pub(super) fn in_row(&mut self, tok: Tok) -> Step {
        let Tok::Tag(tag) = tok else {
            return self.in_table(tok);
        };
        let tr = local_name!("tr");
        match (start(&tag), &tag.name) {
            (true, &local_name!("th") | &local_name!("td")) => {
                self.pop_to_current(row_context);
                self.insert_tag(tag);
                self.mode = Mode::InCell;
                self.active.push(Entry::Marker);
            }
            (false, &local_name!("tr")) => {
                if self.in_scope(Scope::Table, &tr) {
                    self.pop_to_current(row_context);
                    self.open.pop();
                    self.mode = Mode::InTableBody;
                }
            }
            // (The cell start tags are taken above.)
            (true, &(table_part_names!())) | (false, &local_name!("table")) => {
                if self.in_scope(Scope::Table, &tr) {
                    self.pop_to_current(row_context);
                    self.open.pop();
                    return Ok(Flow::Again(Mode::InTableBody, Tok::Tag(tag)));
                }
            }
            (false, &(section_names!())) => {
                if self.in_scope(Scope::Table, &tag.name) && self.in_scope(Scope::Table, &tr) {
                    self.pop_to_current(row_context);
                    self.open.pop();
                    return Ok(Flow::Again(Mode::InTableBody, Tok::Tag(tag)));
                }
            }
            // (The row and section end tags are taken above.)
            (false, &(table_ignored_end_names!())) => {}
            _ => return self.in_table(Tok::Tag(tag)),
        }
        Ok(Flow::Done)
    }

    pub(super) fn in_cell(&mut self, tok: Tok) -> Step {
        let Tok::Tag(tag) = tok else {
            return self.in_body(tok);
        };
        match (start(&tag), &tag.name) {
            (false, &local_name!("td") | &local_name!("th")) => {
                if self.in_scope(Scope::Table, &tag.name) {
                    self.implied_ends();
                    self.pop_until(&tag.name);
                    self.clear_to_marker();
                    self.mode = Mode::InRow;
                }
            }
            (true, &(table_part_names!())) => {
                if self.in_scope_by(Scope::Table, |o| o.html().is_some_and(cell)) {
                    self.close_cell();
                    return Ok(Flow::Again(Mode::InRow, Tok::Tag(tag)));
                }
            }
            (false, &local_name!("table") | &local_name!("tr") | &(section_names!())) => {
                if self.in_scope(Scope::Table, &tag.name) {
                    self.close_cell();
                    return Ok(Flow::Again(Mode::InRow, Tok::Tag(tag)));
                }
            }
            // (The cell, row, section end tags are taken above.)
            (false, &(table_ignored_end_names!())) => {}
            _ => return self.in_body(Tok::Tag(tag)),
        }
        Ok(Flow::Done)
    }

    fn close_cell(&mut self) {
        self.implied_ends();
        self.pop_until_by(|o| o.html().is_some_and(cell));
        self.clear_to_marker();
    }

    /// Reset the insertion mode appropriately.
    pub(super) fn reset_mode(&self) -> Result<Mode, super::Bail> {
        let last = 0;
        for (i, o) in self.open.iter().enumerate().rev() {
            let Some(name) = o.html() else {
                continue;
            };
            let mode = match *name {
                local_name!("td") | local_name!("th") if i != last => Mode::InCell,
                local_name!("tr") => Mode::InRow,
                local_name!("tbody") | local_name!("thead") | local_name!("tfoot") => Mode::InTableBody,
                local_name!("caption") => Mode::InCaption,
                local_name!("colgroup") => Mode::InColumnGroup,
                local_name!("table") => Mode::InTable,
                local_name!("template") => return self.templates.last().copied().ok_or("reset mode"),
                local_name!("frameset") => return Err("frameset"),
                local_name!("head") if i != last => Mode::InHead,
                local_name!("body") => Mode::InBody,
                local_name!("html") => {
                    if self.head.is_none() {
                        Mode::BeforeHead
                    } else {
                        Mode::AfterHead
                    }
                }
                _ => continue,
            };
            return Ok(mode);
        }
        Ok(Mode::InBody)
    }
}
