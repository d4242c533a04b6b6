//! GFM tables. Cells render inline on one line (breaks as `<br>`, `|` as
//! `\|`); `colspan` adds empty cells after the content, `rowspan` empty cells
//! below it, and rows are padded to the widest row. The header is the first
//! row when it is in `<thead>` or all `<th>`; otherwise the first row is
//! promoted when it has at least two cells, all plain non-empty text, as many
//! as the widest row (upstream's rule; an empty top-left corner cell is also
//! allowed); otherwise an empty header row is written. Columns empty in every
//! row are dropped. Tables with one column of content are layout, not data:
//! their cells render as blocks.

use super::blocks::Blocks;
use super::inline::{Break, Inline};
use super::{Renderer, Role, role};
use crate::parse::{AttrName, NodeId, Tag};

/// A cell found in the table's structure.
struct CellRef {
    id: NodeId,
    colspan: usize,
    rowspan: usize,
    th: bool,
}

/// A row found in the table's structure.
struct RowRef {
    cells: Vec<CellRef>,
    in_thead: bool,
}

/// Appends `| a | b |` and a newline, padded to `width` cells.
fn write_row(md: &mut String, cells: &[Cell], width: usize) {
    md.push('|');
    for i in 0..width {
        md.push(' ');
        if let Some(c) = cells.get(i) {
            md.push_str(&c.text);
        }
        md.push_str(" |");
    }
    md.push('\n');
}

/// Pushes empty cells for the columns from `col` on still covered by a rowspan.
fn skip_covered(covered: &mut [usize], out: &mut Vec<Cell>, col: &mut usize) {
    while *col < covered.len() && covered[*col] > 0 {
        covered[*col] -= 1;
        out.push(Cell::empty());
        *col += 1;
    }
}

/// A rendered cell.
struct Cell {
    text: String,
    plain: bool,
    /// The `<td>`/`<th>` (none for the empty cells spans add).
    id: Option<NodeId>,
}

impl Cell {
    fn empty() -> Self {
        Cell {
            text: String::new(),
            plain: false,
            id: None,
        }
    }
}

impl<'d, 'a> Renderer<'d, 'a> {
    /// The markdown of a `<table>` (with its caption as a paragraph before it).
    pub(super) fn table(&self, id: NodeId) -> String {
        let mut rows = Vec::new();
        let mut caption = None;
        self.collect_rows(id, false, &mut rows, &mut caption);
        let mut out = Blocks::new();
        if let Some(caption) = caption {
            self.inline_children(caption, &mut out.inl);
        }
        let width = rows
            .iter()
            .map(|r| r.cells.iter().map(|c| c.colspan).sum::<usize>())
            .max()
            .unwrap_or(0);
        if width == 1 {
            let cells: Vec<NodeId> = rows.iter().flat_map(|r| r.cells.iter().map(|c| c.id)).collect();
            return self.layout(out, &cells);
        }
        let mut grid: Vec<(Vec<Cell>, bool)> = self
            .grid(&rows)
            .into_iter()
            .zip(rows.iter())
            .filter(|(cells, _)| cells.iter().any(|c| !c.text.is_empty()))
            .map(|(cells, r)| {
                (
                    cells,
                    r.in_thead || !r.cells.is_empty() && r.cells.iter().all(|c| c.th),
                )
            })
            .collect();
        // Columns empty in every row are dropped (spacer cells).
        let width = grid.iter().map(|(cells, _)| cells.len()).max().unwrap_or(0);
        let used: Vec<bool> = (0..width)
            .map(|i| {
                grid.iter()
                    .any(|(cells, _)| cells.get(i).is_some_and(|c| !c.text.is_empty()))
            })
            .collect();
        let width = used.iter().filter(|&&u| u).count();
        if width <= 1 {
            // One column of content: layout, not data.
            let cells: Vec<NodeId> = grid
                .iter()
                .flat_map(|(cells, _)| cells.iter().filter_map(|c| c.id))
                .collect();
            return self.layout(out, &cells);
        }
        for (cells, _) in &mut grid {
            let mut i = 0;
            cells.retain(|_| {
                i += 1;
                used[i - 1]
            });
        }
        let (first, first_is_head) = &grid[0];
        // Upstream's promotion rule, also allowing an empty top-left corner cell.
        let promote = first.len() == width
            && first
                .iter()
                .enumerate()
                .all(|(i, c)| c.plain || i == 0 && c.text.is_empty())
            && first.iter().filter(|c| c.plain).count() >= 2;
        let has_header = *first_is_head || promote;
        let mut md = String::new();
        let body = if has_header {
            write_row(&mut md, first, width);
            &grid[1..]
        } else {
            write_row(&mut md, &[], width);
            &grid[..]
        };
        md.push('|');
        for _ in 0..width {
            md.push_str(" --- |");
        }
        md.push('\n');
        for (cells, _) in body {
            write_row(&mut md, cells, width);
        }
        md.pop();
        out.push_block(&md, "\n\n");
        out.finish()
    }

    /// A layout table: its cells' content as blocks, in order.
    fn layout(&self, mut out: Blocks, cells: &[NodeId]) -> String {
        for &cell in cells {
            out.para_break();
            self.blocks(cell, &mut out);
            out.para_break();
        }
        out.finish()
    }

    /// Rows (`<tr>` directly, or in `<thead>`/`<tbody>`/`<tfoot>` or other
    /// wrappers), not descending into nested tables.
    fn collect_rows(&self, id: NodeId, in_thead: bool, rows: &mut Vec<RowRef>, caption: &mut Option<NodeId>) {
        for child in self.doc.children(id) {
            let Some(e) = self.doc.element(child) else {
                continue;
            };
            match e.tag {
                Tag::Tr => {
                    let mut cells = Vec::new();
                    self.collect_cells(child, &mut cells);
                    rows.push(RowRef { cells, in_thead });
                }
                Tag::Thead => self.collect_rows(child, true, rows, caption),
                Tag::Tbody | Tag::Tfoot => self.collect_rows(child, false, rows, caption),
                Tag::Caption => *caption = Some(child),
                Tag::Table | Tag::Td | Tag::Th => {}
                tag if role(self.doc, child, tag) == Role::Drop => {}
                _ => self.collect_rows(child, in_thead, rows, caption),
            }
        }
    }

    fn collect_cells(&self, id: NodeId, cells: &mut Vec<CellRef>) {
        for child in self.doc.children(id) {
            let Some(e) = self.doc.element(child) else {
                continue;
            };
            match e.tag {
                Tag::Td | Tag::Th => {
                    let span = |name, max| {
                        self.attr(e, name)
                            .and_then(|v| v.trim().parse::<usize>().ok())
                            .unwrap_or(1)
                            .clamp(1, max)
                    };
                    cells.push(CellRef {
                        id: child,
                        colspan: span(AttrName::Colspan, 64),
                        rowspan: span(AttrName::Rowspan, 1024),
                        th: e.tag == Tag::Th,
                    });
                }
                Tag::Table | Tag::Tr => {}
                tag if role(self.doc, child, tag) == Role::Drop => {}
                _ => self.collect_cells(child, cells),
            }
        }
    }

    /// Rendered rows with spans expanded into empty cells.
    fn grid(&self, rows: &[RowRef]) -> Vec<Vec<Cell>> {
        // Rows still covered by a rowspan, per column.
        let mut covered: Vec<usize> = Vec::new();
        let mut grid = Vec::with_capacity(rows.len());
        for row in rows {
            let mut out = Vec::with_capacity(row.cells.len());
            let mut col = 0;
            for cell in &row.cells {
                skip_covered(&mut covered, &mut out, &mut col);
                out.push(self.cell(cell.id));
                for k in 0..cell.colspan {
                    if k > 0 {
                        out.push(Cell::empty());
                    }
                    if covered.len() <= col {
                        covered.resize(col + 1, 0);
                    }
                    covered[col] = cell.rowspan - 1;
                    col += 1;
                }
            }
            skip_covered(&mut covered, &mut out, &mut col);
            for c in covered.iter_mut().skip(col) {
                *c = c.saturating_sub(1);
            }
            grid.push(out);
        }
        grid
    }

    /// One cell's content on one line.
    fn cell(&self, id: NodeId) -> Cell {
        let mut inl = Inline::new(Break::Cell);
        self.inline_children(id, &mut inl);
        let mut text = inl.finish();
        if text.contains('|') {
            text = text.replace('|', "\\|");
        }
        if text.contains('\n') {
            text = text.replace('\n', " ");
        }
        let plain = !text.is_empty() && crate::scan::find2(text.as_bytes(), *b"](").is_none();
        Cell {
            text,
            plain,
            id: Some(id),
        }
    }

    /// A table inside inline content: rows as line breaks, cells as spaces.
    pub(super) fn inline_table(&self, id: NodeId, inl: &mut Inline) {
        let mut rows = Vec::new();
        let mut caption = None;
        self.collect_rows(id, false, &mut rows, &mut caption);
        for row in rows {
            inl.boundary();
            for cell in row.cells {
                self.inline_children(cell.id, inl);
                inl.space();
            }
        }
        inl.boundary();
    }
}
