//! Markdown → blocks separated by blank lines, each kept verbatim; a fenced
//! code block is one block whatever blank lines it holds. Code and tables are
//! marked as not removable.

/// One block of the markdown.
#[derive(Debug, Clone, PartialEq)]
pub struct Block {
    pub text: String,
    /// False for fenced code and tables, which cleaning never removes.
    pub removable: bool,
}

/// The blocks of `markdown`, in order.
pub fn split_blocks(markdown: &str) -> Vec<Block> {
    let mut blocks = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    let mut fence: Option<&str> = None;
    for line in markdown.lines() {
        let trimmed = line.trim_start();
        if let Some(open) = fence {
            current.push(line);
            if trimmed.starts_with(open) {
                fence = None;
            }
            continue;
        }
        if trimmed.starts_with("```") || trimmed.starts_with("~~~") {
            fence = Some(&trimmed[..3]);
            current.push(line);
            continue;
        }
        if trimmed.is_empty() {
            flush(&mut current, &mut blocks);
        } else {
            current.push(line);
        }
    }
    flush(&mut current, &mut blocks);
    blocks
}

fn flush(lines: &mut Vec<&str>, blocks: &mut Vec<Block>) {
    if lines.is_empty() {
        return;
    }
    let text = lines.join("\n");
    let first = text.trim_start();
    let is_code = first.starts_with("```") || first.starts_with("~~~");
    let is_table = lines.iter().all(|l| l.trim_start().starts_with('|'));
    blocks.push(Block {
        text,
        removable: !(is_code || is_table),
    });
    lines.clear();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paragraphs_code_and_tables() {
        let md = "# T\n\npara one\nstill one\n\n\n```rust\nlet a = 1;\n\nlet b = 2;\n```\n| a | b |\n|---|---|\n\n- x\n- y";
        let b = split_blocks(md);
        let texts: Vec<&str> = b.iter().map(|b| b.text.as_str()).collect();
        assert_eq!(
            texts,
            vec![
                "# T",
                "para one\nstill one",
                "```rust\nlet a = 1;\n\nlet b = 2;\n```\n| a | b |\n|---|---|",
                "- x\n- y"
            ]
        );
        assert_eq!(
            b.iter().map(|b| b.removable).collect::<Vec<_>>(),
            vec![true, true, false, true]
        );
    }

    #[test]
    fn an_unclosed_fence_runs_to_the_end() {
        let b = split_blocks("a\n\n```\ncode\n\nmore");
        assert_eq!(b.len(), 2);
        assert!(!b[1].removable);
    }
}
