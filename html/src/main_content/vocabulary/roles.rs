//! Words that play a part in how a class is read beyond their weight (see
//! `hints::words`): a forum's thread, the qualifiers of navigation, the pieces, components
//! and persons whose next word names a part (`article-body`, `card-header`, `author-bio`).
//! Each list is one role bit; the vocabulary's table ([`super::entry_of`]) holds a word's roles
//! beside its weight, so a word is looked up once.

/// A word naming a forum thread.
pub(crate) const THREAD: u32 = 1;
/// A chrome word that also names in-page navigation inside content (a content word
/// qualifies it: `content-nav-section`).
pub(crate) const NAV: u32 = 1 << 1;
/// `main`: qualifies chrome (`main-nav`) more often than it names content.
pub(crate) const MAIN: u32 = 1 << 2;
/// `comment(s)` (and the same in other languages): how blogs name readers' comments.
pub(crate) const COMMENT: u32 = 1 << 3;
/// The body of a piece (`article-body`, `entry-content`).
pub(crate) const BODY: u32 = 1 << 4;
/// A component's own part (`card-footer`, `section-header`).
pub(crate) const PART: u32 = 1 << 5;
/// A part of the box about a person (`author-bio`, `member-stats`).
pub(crate) const PERSON_DETAIL: u32 = 1 << 6;
/// `author`: the box about the writer after `about` (`about-the-author`).
pub(crate) const AUTHOR: u32 = 1 << 7;
/// The box about the writer, in one word (`biography`, `authorbox`).
pub(crate) const AUTHOR_BOX: u32 = 1 << 8;
/// `about`, and `the` (which keeps it: `about-the-author`).
pub(crate) const ABOUT: u32 = 1 << 9;
pub(crate) const THE: u32 = 1 << 10;
/// A person (`user`, `author`): the next word may name the box about them.
pub(crate) const PERSON: u32 = 1 << 11;
/// A piece (`article`, `post`): the next word may name its body.
pub(crate) const PIECE: u32 = 1 << 12;
/// A component (`card`, `panel`): the next word may name its part.
pub(crate) const COMPONENT: u32 = 1 << 13;
/// The post's writer (`author`, `contributor`): a box so named after the post is about them.
pub(crate) const WRITER: u32 = 1 << 14;
/// A place after something (`after`, `below`): before a piece or its body
/// (`after-content`, `below-post`), the slot a theme fills under every post.
pub(crate) const PLACE: u32 = 1 << 15;
/// A word of a call to action's name (`cta`, or `call`, `to`, `action` in a row).
pub(crate) const CALL: u32 = 1 << 16;

/// `comment(s)` in English and as hand-made and regional themes name their comment
/// sections (`<div class="kommentare">`, `id="commentaires"`): the [`COMMENT`] role, and
/// words of the comments' weight in the vocabulary.
pub(crate) const COMMENT_NOUNS: &[&str] = &[
    "comment",
    "comments",
    "commentaire",
    "commentaires",
    "commenti",
    "commento",
    "comentario",
    "comentarios",
    "kommentar",
    "kommentare",
    "komentarz",
    "komentarze",
];

/// The role lists, with their bits.
pub(crate) const ROLES: [(&[&str], u32); 17] = [
    (
        &[
            "thread",
            "threads",
            "topic",
            "topics",
            "forum",
            "forums",
            "discussion",
            "discussions",
        ],
        THREAD,
    ),
    (
        &[
            "nav",
            "navbar",
            "navigation",
            "navigator",
            "navlinks",
            "menu",
            "menus",
            "submenu",
            "menubar",
            "megamenu",
            "carousel",
            "gallery",
            "banner",
            "cta",
            "overlay",
        ],
        NAV,
    ),
    (&["main"], MAIN),
    (COMMENT_NOUNS, COMMENT),
    (&["body", "content", "text"], BODY),
    (&["header", "footer", "meta"], PART),
    (
        &[
            "details",
            "detail",
            "extras",
            "info",
            "bio",
            "title",
            "banner",
            "stats",
            "box",
            "card",
            "description",
            "about",
        ],
        PERSON_DETAIL,
    ),
    (&["author"], AUTHOR),
    (
        &["bio", "bios", "biography", "authorbox", "saboxplugin"],
        AUTHOR_BOX,
    ),
    (&["about"], ABOUT),
    (&["the"], THE),
    (&["user", "author", "member", "poster"], PERSON),
    (&["article", "post", "entry", "story", "blog", "news"], PIECE),
    (
        &[
            "card",
            "item",
            "tile",
            "teaser",
            "panel",
            "box",
            "block",
            "section",
            "product",
            "accordion",
            "tab",
            "table",
        ],
        COMPONENT,
    ),
    (
        &[
            "author",
            "authors",
            "contributor",
            "contributors",
            "writer",
            "writers",
        ],
        WRITER,
    ),
    (&["after", "below", "under"], PLACE),
    (&["cta", "ctas", "call", "to", "action"], CALL),
];
