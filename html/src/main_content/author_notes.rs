//! The author's biography the page's head gives as data: a JSON-LD `author` (or `creator`,
//! or a `Person` node of the page's graph) with a `description` ("Ann Lee is a freelance
//! writer living in …") is the note a theme prints in the author box under every post by
//! that writer. A kept block whose words are that description (or its first paragraph, or
//! the description its first part) is the box, not the post, whatever its markup: the bios
//! under posts sit in plain paragraphs, with no class, no separator and no title to tell
//! them apart, and the same sentences written in the post's own flow ("Ann Lee is …"
//! closing a contributor's column) differ from the page's data. The description is read
//! before the head is stripped; the blocks are compared on their words only (letters and
//! digits, lower case), so markup and punctuation inside either do not matter.

use dom_query::Document;

use super::arena::Arena;
use super::pruning::Pruning;

/// Words a description or a block compared with it holds at least: shorter notes ("Staff
/// writer") are titles that a post's text may repeat.
const MIN_WORDS: usize = 12;
/// Share of the container's words a matching block holds at most (a page that is the
/// author's profile keeps its one text).
const MAX_SHARE: f32 = 0.5;
/// Descriptions kept per page at most.
const MAX_NOTES: usize = 4;
/// JSON-LD keys whose objects are the page's writers.
const AUTHOR_KEYS: &[&str] = &["author", "creator"];

/// Adds the descriptions of the authors (and of the persons it describes) in one JSON-LD
/// text of the page's head to `notes`, as their words (see [`words_of`]), each of
/// [`MIN_WORDS`] words or more ([`super::declared::read_head`] hands it every JSON-LD
/// text of the head).
pub(super) fn read_json_ld(text: &str, notes: &mut Vec<String>) {
    // Most JSON-LD describes no person: the text is parsed only when a `Person` object
    // holds a description (parsing a site's whole graph costs ~2 % of a scrape).
    if !describes_person(text) {
        return;
    }
    if let Ok(value) = serde_json::from_str::<serde_json::Value>(text) {
        collect(&value, notes, 0);
    }
}

/// Whether a `"description"` key follows a `"Person"` type (a writer's object lists its
/// picture's object, with its own `@type`, before its description): the quick test a
/// JSON-LD text passes before it is parsed.
fn describes_person(text: &str) -> bool {
    text.find("\"Person\"")
        .is_some_and(|at| text[at..].contains("\"description\""))
}

/// Nesting depth of JSON-LD read at most.
const MAX_DEPTH: u32 = 12;

/// Adds the descriptions of the author objects found in `value` to `notes`.
fn collect(value: &serde_json::Value, notes: &mut Vec<String>, depth: u32) {
    if depth > MAX_DEPTH || notes.len() >= MAX_NOTES {
        return;
    }
    match value {
        serde_json::Value::Array(items) => {
            for item in items {
                collect(item, notes, depth + 1);
            }
        }
        serde_json::Value::Object(map) => {
            // A writer described apart from the article (a `@graph`'s `Person` node, which
            // the article's `author` points to by `@id`).
            if is_person(map) {
                push_description(value, notes);
            }
            for (key, v) in map {
                if AUTHOR_KEYS.contains(&key.as_str()) {
                    let people = v.as_array().map_or(std::slice::from_ref(v), |a| a.as_slice());
                    for person in people {
                        push_description(person, notes);
                    }
                }
                collect(v, notes, depth + 1);
            }
        }
        _ => {}
    }
}

/// Whether a JSON-LD object's `@type` is (or lists) `Person`.
fn is_person(map: &serde_json::Map<String, serde_json::Value>) -> bool {
    match map.get("@type") {
        Some(serde_json::Value::String(t)) => t == "Person",
        Some(serde_json::Value::Array(ts)) => ts.iter().any(|t| t.as_str() == Some("Person")),
        _ => false,
    }
}

/// Adds the words of `person`'s `description` to `notes` when it is long enough and new.
fn push_description(person: &serde_json::Value, notes: &mut Vec<String>) {
    let Some(d) = person.get("description").and_then(|d| d.as_str()) else {
        return;
    };
    let words = words_of(&strip_tags(d));
    if words.split(' ').count() >= MIN_WORDS && notes.len() < MAX_NOTES && !notes.contains(&words) {
        notes.push(words);
    }
}

/// `s` without its markup (`<p>…</p>` in a description written as HTML).
fn strip_tags(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    let mut in_tag = false;
    for c in s.chars() {
        match c {
            '<' => in_tag = true,
            '>' if in_tag => {
                in_tag = false;
                out.push(' ');
            }
            c if !in_tag => out.push(c),
            _ => {}
        }
    }
    out
}

/// The words of `s` (runs of letters and digits), lower case, joined by one space.
fn words_of(s: &str) -> String {
    let mut out = String::with_capacity(s.len());
    for w in s.split(|c: char| !c.is_alphanumeric()).filter(|w| !w.is_empty()) {
        if !out.is_empty() {
            out.push(' ');
        }
        out.extend(w.chars().flat_map(char::to_lowercase));
    }
    out
}

/// Whether the block's words are the note's, or one starts the other with
/// [`MIN_WORDS`] words or more in the shorter (a note of several paragraphs printed as
/// one, or its first paragraph printed alone).
fn same_note(block: &str, note: &str) -> bool {
    let (short, long) = if block.len() <= note.len() {
        (block, note)
    } else {
        (note, block)
    };
    long.starts_with(short)
        && long.as_bytes().get(short.len()).is_none_or(|&b| b == b' ')
        && short.split(' ').count() >= MIN_WORDS
}

/// Prunes the kept blocks that print one of the page's author `notes`.
pub(super) fn prune(
    doc: &Document,
    arena: &Arena,
    notes: &[String],
    holds_forced: &[bool],
    prune: &mut Pruning,
) {
    if notes.is_empty() {
        return;
    }
    let nodes = &arena.nodes;
    let container = prune.container();
    let most = nodes[container].total.words as f32 * MAX_SHARE;
    // A block is read only when its word count could be a note's (the arena counts words
    // a little differently: a margin).
    let longest = notes.iter().map(|n| n.split(' ').count()).max().unwrap_or(0) as u32 + 8;
    let mut found = Vec::new();
    let mut walk = prune.kept(nodes, container + 1, prune.end());
    while let Some(i) = walk.next() {
        let n = &nodes[i];
        if !n.is_block() || n.forced || holds_forced[i] {
            continue;
        }
        let words = n.total.words;
        if words < MIN_WORDS as u32 || words > longest || words as f32 > most {
            continue;
        }
        let Some(text) = doc.tree.get(&n.id).map(|node| words_of(&node.text())) else {
            continue;
        };
        if notes.iter().any(|note| same_note(&text, note)) {
            found.push(i);
            walk.step_over();
        }
    }
    prune.extend(found);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_are_letters_and_digits_lower_case() {
        assert_eq!(
            words_of("  Ann Lee's 10+ years — at <b>Acme</b>!"),
            "ann lee s 10 years at b acme b"
        );
        assert_eq!(
            words_of(&strip_tags("<p>Ann Lee</p><p>writes.</p>")),
            "ann lee writes"
        );
    }

    #[test]
    fn only_a_person_with_a_description_is_parsed() {
        assert!(describes_person(
            r#"{"author":{"@type":"Person","name":"A","description":"B"}}"#
        ));
        assert!(describes_person(r#"[{"@type":["Person"],"description":"B"}]"#));
        assert!(describes_person(
            r#"{"@type":"Person","image":{"@type":"ImageObject"},"description":"B"}"#
        ));
        assert!(!describes_person(
            r#"{"@type":"WebPage","description":"B"},{"@type":"Person","name":"A"}"#
        ));
        assert!(!describes_person(r#"{"@type":"Article","description":"B"}"#));
    }

    #[test]
    fn a_note_matches_whole_or_by_its_first_paragraph() {
        let note = words_of(
            "Ann Lee is a writer who covers gardens, homes and travel for the magazine. She lives in Leeds.",
        );
        assert!(same_note(&note, &note));
        let first = words_of("Ann Lee is a writer who covers gardens, homes and travel for the magazine.");
        assert!(same_note(&first, &note));
        let short = words_of("Ann Lee is a writer.");
        assert!(!same_note(&short, &note));
        let other = words_of("Ann Lee is a writer who covers gardens, homes and travel for the paper.");
        assert!(!same_note(&other, &note));
        // A word cut in two is no prefix.
        assert!(!same_note(&format!("{first}s"), &format!("{first}shire")));
    }
}
