//! Tests of [`super`]: the word accumulator with its one look-up of a word's weight and
//! roles against the code it replaced (its `matches!` lists, kept here as a reference).

use super::*;

/// A word's weight read from the vocabulary's lists (a word listed twice: the last list).
fn word_reference(w: &str) -> Word {
    crate::main_content::vocabulary::listed_words()
        .filter(|&(x, _)| x == w)
        .last()
        .map_or(Word::Neutral, |(_, weight)| weight)
}

// The accumulator as it was before the roles table: the reference.
fn add_word_reference(out: &mut Words, w: &str) {
    out.thread |= matches!(
        w,
        "thread" | "threads" | "topic" | "topics" | "forum" | "forums" | "discussion" | "discussions"
    );
    match word_reference(w) {
        Word::Boiler => {
            out.boiler = true;
            out.score -= 3;
        }
        Word::Chrome(n) => {
            out.score += n;
            if n <= -3 {
                // Navigation words also name in-page navigation inside content
                // (`content-nav-section`); the rest name chrome regions outright.
                if matches!(
                    w,
                    "nav"
                        | "navbar"
                        | "navigation"
                        | "navigator"
                        | "navlinks"
                        | "menu"
                        | "menus"
                        | "submenu"
                        | "menubar"
                        | "megamenu"
                        | "carousel"
                        | "gallery"
                        | "banner"
                        | "cta"
                        | "overlay"
                ) {
                    out.weak_chrome = true;
                } else {
                    out.strong_chrome = true;
                }
            }
        }
        Word::Content => {
            out.score += 2;
            // "main" qualifies chrome (`main-nav`) more often than it names content.
            out.content_word |= w != "main";
        }
        Word::Comments => {
            out.comments = true;
            out.comment_word |= matches!(
                w,
                "comment"
                    | "comments"
                    | "commentaire"
                    | "commentaires"
                    | "commenti"
                    | "commento"
                    | "comentario"
                    | "comentarios"
                    | "kommentar"
                    | "kommentare"
                    | "komentarz"
                    | "komentarze"
            );
            out.score -= 2;
        }
        Word::Neutral => {}
    }
}

/// Class and id words of an element (and the words of a custom element's tag name).
/// Accumulates the words of one element.
struct AccReference {
    out: Words,
    /// Hashes of the words seen: each word counts once per element
    /// (`promo cmp-promo box-shadow-promo` is one "promo").
    seen: [u64; 16],
    n_seen: usize,
    /// The previous word of the current class named a piece (article, post…).
    prev_piece: bool,
    /// The previous word of the current class named a component (card, item…).
    prev_component: bool,
    /// The previous word of the current class was `form` (or `form` then `message`).
    prev_form: bool,
    /// The previous word of the current class named a person (user, author, member).
    prev_person: bool,
    /// The previous words of the current class were `about` or `about the`.
    prev_about: bool,
    /// The previous word of the current class was `after`, `below` or `under`.
    prev_place: bool,
    /// The previous words of the current class were `call` (1) or `call to` (2).
    prev_call: u8,
}

impl AccReference {
    /// The box about a poster or an author (biography, stats): chrome, and never the
    /// article's body it sits in (`post-body-bio`).
    fn author_box(&mut self) {
        self.out.strong_chrome = true;
        self.out.article_body = false;
        self.out.score -= 3;
        self.prev_person = false;
        self.prev_about = false;
    }

    fn add(&mut self, w: &str) {
        self.out.writer |= matches!(
            w,
            "author" | "authors" | "contributor" | "contributors" | "writer" | "writers"
        );
        self.out.after_post |= self.prev_place
            && matches!(
                w,
                "body" | "content" | "text" | "article" | "post" | "entry" | "story" | "blog" | "news"
            );
        self.prev_place = matches!(w, "after" | "below" | "under");
        // `article-body`, `entry-content`: a piece word followed by a body word.
        if self.prev_piece && matches!(w, "body" | "content" | "text") {
            self.out.article_body = true;
        }
        let part_of_component = self.prev_component && matches!(w, "header" | "footer" | "meta");
        // A call to action (added with the call-to-action rule, the same code as `Acc`).
        self.out.call_to_action |= matches!(w, "cta" | "ctas") || (self.prev_call == 2 && w == "action");
        self.prev_call = match (self.prev_call, w) {
            (_, "call") => 1,
            (1, "to") => 2,
            _ => 0,
        };
        // A form's state messages (added with the form-state rule, the same code as `Acc`).
        if self.prev_form {
            self.out.boiler |= matches!(w, "done" | "fail" | "failure" | "success" | "error" | "sent");
            self.prev_form = matches!(w, "message" | "msg");
        } else {
            self.prev_form = w == "form";
        }
        // `message-userDetails`, `author-bio`, `member-stats`: the box about a poster or an
        // author beside their text (title, join date, post count, biography) is chrome,
        // whatever content word ("details", "description") names its parts.
        if self.prev_person
            && matches!(
                w,
                "details"
                    | "detail"
                    | "extras"
                    | "info"
                    | "bio"
                    | "title"
                    | "banner"
                    | "stats"
                    | "box"
                    | "card"
                    | "description"
                    | "about"
            )
        {
            self.author_box();
            return;
        }
        // `about-author`, `about-the-author`, `mini-bio`, `post-body-bio`, `biography`:
        // the box about the writer that ends a post, even inside the post's body.
        // `authorbox`, `saboxplugin-wrap`: the same, named in one word by author-box plugins.
        match w {
            "author" if self.prev_about => return self.author_box(),
            "bio" | "bios" | "biography" | "authorbox" | "saboxplugin" => return self.author_box(),
            _ => {}
        }
        self.prev_about = match w {
            "about" => true,
            "the" => self.prev_about,
            _ => false,
        };
        self.prev_person = matches!(w, "user" | "author" | "member" | "poster");
        self.prev_piece = matches!(w, "article" | "post" | "entry" | "story" | "blog" | "news");
        self.prev_component = matches!(
            w,
            "card"
                | "item"
                | "tile"
                | "teaser"
                | "panel"
                | "box"
                | "block"
                | "section"
                | "product"
                | "accordion"
                | "tab"
                | "table"
        );
        // `card-footer`, `section-header`: a part of a component, not the page's chrome
        // (an article's or post's footer is its meta: tags, sharing, so it stays chrome).
        if part_of_component {
            return;
        }
        let key = w.bytes().fold(0xcbf2_9ce4_8422_2325u64, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        if self.seen[..self.n_seen].contains(&key) {
            return;
        }
        if self.n_seen < self.seen.len() {
            self.seen[self.n_seen] = key;
            self.n_seen += 1;
        }
        add_word_reference(&mut self.out, w);
    }
}

fn reference_acc() -> AccReference {
    AccReference {
        out: Words::default(),
        seen: [0; 16],
        n_seen: 0,
        prev_piece: false,
        prev_component: false,
        prev_person: false,
        prev_about: false,
        prev_form: false,
        prev_place: false,
        prev_call: 0,
    }
}

fn new_acc(seen: &mut [WordKey; 16]) -> Acc<'_> {
    Acc {
        out: Words::default(),
        seen,
        n_seen: 0,
        phrase: Phrase::default(),
        prev_form: false,
    }
}

#[test]
fn the_roles_table_reads_words_as_the_matches_lists_did() {
    // Every listed word, role word and vocabulary word, some of their neighbours, and
    // other words; fed in runs (a class) with the per-class state reset between runs, as
    // `words_of` does.
    let mut pieces: Vec<String> = crate::main_content::vocabulary::roles::ROLES
        .iter()
        .flat_map(|(words, _)| words.iter().map(|w| w.to_string()))
        .collect();
    pieces.extend(crate::main_content::vocabulary::listed_words().map(|(w, _)| w.to_string()));
    for w in pieces.clone() {
        pieces.push(format!("{w}s"));
        pieces.push(w[..w.len() - 1].to_string());
    }
    pieces.extend(
        [
            "", "x", "wrap", "inner", "col", "md", "the", "about", "é", "call", "to", "action", "cta",
        ]
        .map(String::from),
    );
    let mut rng = crate::test_rng::TestRng::new(21);
    // Storage kept from one accumulator to the next, as the word cache keeps it.
    let mut seen = [WordKey::default(); 16];
    for _ in 0..100_000 {
        let (mut reference, mut new) = (reference_acc(), new_acc(&mut seen));
        for _ in 0..rng.below(4) + 1 {
            reference.prev_piece = false;
            reference.prev_person = false;
            reference.prev_about = false;
            reference.prev_component = false;
            reference.prev_form = false;
            reference.prev_call = 0;
            reference.prev_place = false;
            new.new_class();
            for _ in 0..rng.below(7) {
                let w = &pieces[rng.below(pieces.len())];
                reference.add(w);
                new.add(w);
                assert_eq!(
                    (
                        new.phrase.piece,
                        new.phrase.person,
                        new.phrase.about,
                        new.phrase.component,
                        new.phrase.place,
                        new.phrase.call
                    ),
                    (
                        reference.prev_piece,
                        reference.prev_person,
                        reference.prev_about,
                        reference.prev_component,
                        reference.prev_place,
                        reference.prev_call
                    ),
                    "{w:?}"
                );
            }
        }
        assert_eq!(new.out, reference.out);
        assert_eq!(new.n_seen, reference.n_seen);
    }
}

#[test]
fn slugs_are_ids_of_five_parts_as_the_split_counts_them() {
    let pieces = ["-", "_", "a", "é", "x9", "--", "review", "_-", "日本"];
    let mut rng = crate::test_rng::TestRng::new(41);
    let mut slugs = 0;
    for _ in 0..50_000 {
        let id: String = (0..rng.below(20))
            .map(|_| pieces[rng.below(pieces.len())])
            .collect();
        let reference = id.split(['-', '_']).filter(|p| !p.is_empty()).count() >= 5;
        assert_eq!(is_slug(&id), reference, "{id:?}");
        slugs += usize::from(reference);
    }
    assert!(slugs > 1000, "{slugs}");
}

/// `words_of` as it was before the one-pass scan: a split, then for each class the
/// variant test, the fragment scan and the word splitter, each a scan of its own.
fn words_of_reference(value: &str, is_class: bool, mut each: impl FnMut(&str, bool)) -> Words {
    use crate::main_content::vocabulary::{for_each_word, fragments};
    let mut seen = [WordKey::default(); 16];
    let mut acc = new_acc(&mut seen);
    let mut post_terms: Option<bool> = None;
    let mut n = 0;
    for class in value.split_ascii_whitespace() {
        let variant = contains_either(class, b':', b'[');
        each(class, variant);
        let term = is_class
            && post_term(class)
            && *post_terms.get_or_insert_with(|| {
                value
                    .split_ascii_whitespace()
                    .filter(|c| post_term(c))
                    .nth(1)
                    .is_some()
            });
        if class.len() >= 4 && !term {
            let (boiler, reader) = fragments(class);
            acc.out.boiler |= boiler;
            acc.out.screen_reader |= is_class && !variant && reader;
        }
        if variant || n == 8 {
            continue;
        }
        n += 1;
        if term {
            continue;
        }
        acc.new_class();
        for_each_word(class, |w| acc.add(w));
    }
    acc.out
}

#[test]
fn one_pass_words_are_the_words_the_separate_scans_read() {
    // Vocabulary words in both cases, phrases, post terms, variants, fragments and marks,
    // generated names, separators and whitespace of every kind.
    let mut pieces: Vec<String> = crate::main_content::vocabulary::listed_words()
        .map(|(w, _)| w.to_string())
        .step_by(3)
        .collect();
    pieces.extend(
        [
            " ",
            " ",
            " ",
            "  ",
            "\t",
            "\n",
            "\x0c",
            "\x0b",
            "-",
            "-",
            "_",
            "__",
            ":",
            "[",
            "]",
            "md:",
            "w-[2px]",
            "Body",
            "Content",
            "article",
            "entry",
            "about",
            "the",
            "author",
            "call",
            "to",
            "action",
            "form",
            "done",
            "message",
            "user",
            "details",
            "card",
            "footer",
            "after",
            "post",
            "category-",
            "tag-",
            "status-",
            "sr-only",
            "visually-hidden",
            "cookie",
            "NewsLetter",
            "gdpr",
            "x9Kd",
            "hJDwNd",
            "é",
            "Größe",
            "a",
            "A1",
            "navWrap",
            "SiteFooter",
        ]
        .map(String::from),
    );
    let mut rng = crate::test_rng::TestRng::new(41);
    let mut seen = [WordKey::default(); 16];
    for round in 0..100_000 {
        let v = rng.string_of(&pieces, 30);
        let is_class = round % 3 != 0;
        let (mut fast, mut slow) = (Vec::new(), Vec::new());
        let got = words_of(&v, is_class, &mut seen, |c, variant| {
            fast.push((c.to_string(), variant))
        });
        let want = words_of_reference(&v, is_class, |c, variant| slow.push((c.to_string(), variant)));
        assert_eq!(got, want, "{v:?} {is_class}");
        assert_eq!(fast, slow, "{v:?}");
    }
}

#[test]
fn post_terms_are_read_by_first_letter_as_the_whole_list_reads_them() {
    let reference = |class: &str| {
        POST_TERM_PREFIXES
            .iter()
            .any(|p| class.len() > p.len() && class.as_bytes()[..p.len()].eq_ignore_ascii_case(p.as_bytes()))
    };
    let mut pieces: Vec<String> = POST_TERM_PREFIXES.iter().map(|p| p.to_string()).collect();
    for p in POST_TERM_PREFIXES {
        pieces.push(p.to_ascii_uppercase());
        pieces.push(p[..p.len() - 1].to_string());
        pieces.push(p[1..].to_string());
    }
    pieces.extend(["", "x", "news", "-", "_", "é", "C", "Tag"].map(String::from));
    let mut rng = crate::test_rng::TestRng::new(67);
    let mut met = 0;
    for _ in 0..100_000 {
        let class = rng.string_of(&pieces, 3);
        assert_eq!(post_term(&class), reference(&class), "{class:?}");
        met += usize::from(reference(&class));
    }
    assert!(met > 1_000, "{met}");
}
