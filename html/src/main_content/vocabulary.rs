//! The class/id vocabulary of [`super::hints`]: what one word of a `class` or `id` says
//! (boilerplate, chrome, content, comments), how a class is split into words, and the
//! fragments that count even inside compound class names (`cookiebanner`, `sr-only`).
//! Generic web vocabulary (WAI-ARIA roles, CMS and framework naming habits), never
//! site-specific names.

pub(super) mod class_scan;
pub(super) mod roles;
mod table;
pub(super) use table::WordKey;

/// What one class/id word says.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum Word {
    /// Never content, however much text it holds: consent banners, newsletters, ads, sharing.
    Boiler,
    /// Chrome (weight -3) or a chrome hint (-1).
    Chrome(i32),
    /// Content container (+2).
    Content,
    /// Comments or replies (content on forums, not after articles).
    Comments,
    Neutral,
}

/// Class/id vocabulary, by what the word says. Generic web vocabulary (WAI-ARIA roles,
/// CMS and framework naming habits), never site names.
const BOILER_WORDS: &[&str] = &[
    "ad",
    "ads",
    "adsense",
    "adslot",
    "advert",
    "adverts",
    "advertising",
    "breadcrumb",
    "breadcrumbs",
    "consent",
    "cookie",
    "cookies",
    "copyright",
    "crumbs",
    "disqus",
    "gdpr",
    "login",
    "modal",
    "newsletter",
    "newsletters",
    "outbrain",
    "popup",
    "share",
    "sharebar",
    "sharing",
    "signin",
    "signup",
    "skip",
    "skiplink",
    "sponsor",
    "sponsored",
    "sponsorship",
    "subscribe",
    "subscription",
    "taboola",
];
const CHROME_WORDS: &[&str] = &[
    // Page chrome: navigation, site header/footer, sidebars, overlays, recirculation.
    "banner",
    "btn",
    "button",
    "buttons",
    "byline",
    "carousel",
    "billboard",
    // A picture's credit line (agency, photographer): a label, not the article's text.
    "credit",
    "credits",
    "crosssell",
    "cta",
    "dialog",
    "footer",
    // A strip of photographs to browse, captions as labels (weak: a content word
    // qualifies it, see `hints::add_word`).
    "gallery",
    "masthead",
    "megamenu",
    "menu",
    "menubar",
    "menus",
    "nav",
    "navbar",
    "navigation",
    "navlinks",
    "navigator",
    "notices",
    "offcanvas",
    "overlay",
    "pager",
    "pagination",
    // The link to the previous post (its title, often a line of its text): a pager.
    "prev",
    // A blog theme's line under or after the post ("This entry was posted on … filed
    // under … You can follow any responses…"): the post's metadata, not its text.
    "postmetadata",
    "recommendation",
    "recommendations",
    "recommended",
    "related",
    "sidebar",
    "sidebars",
    "sidenav",
    "social",
    "socials",
    "submenu",
    "tagcloud",
    "toc",
    "toolbar",
    "topbar",
    "upsell",
    // Shop chrome around a product: buy box, cart, shipping and payment widgets, reviews.
    "afterpay",
    "basket",
    "bazaarvoice",
    "cart",
    "quickshop",
    "quickview",
    "checkout",
    "delivery",
    "klarna",
    "payment",
    "payments",
    "paypal",
    "qty",
    "quantity",
    "returns",
    "review",
    "reviews",
    "shipping",
    "trustpilot",
    "upsells",
    "wishlist",
    "yotpo",
    // Forum chrome around a post: avatars, signatures, member details.
    "avatar",
    "postprofile",
    "reputation",
    "signature",
    "userinfo",
    "usertitle",
];
const CHROME_HINT_WORDS: &[&str] = &[
    "actions",
    "aside",
    "author",
    "badge",
    "badges",
    "bio",
    "bottom",
    "categories",
    "category",
    "complementary",
    "disclaimer",
    "disclaimers",
    "disclosure",
    "disclosures",
    "dropdown",
    "extra",
    "extras",
    "facet",
    "facets",
    "feedback",
    "filter",
    "filters",
    "guarantee",
    "header",
    "hidden",
    "joined",
    "legal",
    "links",
    "member",
    "meta",
    "more",
    "policies",
    "policy",
    "print",
    "profile",
    "promo",
    "promos",
    "promotion",
    "rating",
    "ratings",
    "rss",
    "search",
    "secondary",
    "seller",
    "sort",
    "sr",
    "stats",
    "subnav",
    "tag",
    "tags",
    "tools",
    "top",
    "trust",
    "user",
    "utilities",
    "utility",
    "widget",
    "widgets",
];
const CONTENT_WORDS: &[&str] = &[
    "answer",
    "answers",
    "article",
    "blog",
    "body",
    "content",
    "copy",
    "description",
    "detail",
    "details",
    "docs",
    "documentation",
    "editorial",
    "entry",
    "items",
    "listing",
    "listings",
    "main",
    "markdown",
    "message",
    "messages",
    "post",
    "posts",
    "products",
    "prose",
    "question",
    "results",
    "richtext",
    "rte",
    "specifications",
    "specs",
    "story",
    "text",
    "thread",
    "topic",
    "wysiwyg",
];
/// Comment words besides the nouns ([`roles::COMMENT_NOUNS`], the same weight).
const COMMENT_WORDS: &[&str] = &[
    "discussion",
    "pingbacks",
    "replies",
    "reply",
    "respond",
    "trackback",
    "trackbacks",
];

/// FNV-1a, for small maps of short words.
#[derive(Default)]
pub(super) struct Fnv(u64);

impl std::hash::Hasher for Fnv {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        let mut h = if self.0 == 0 {
            0xcbf2_9ce4_8422_2325
        } else {
            self.0
        };
        for &b in bytes {
            h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
        }
        self.0 = h;
    }
}

pub(super) type FnvSet<K> = std::collections::HashSet<K, std::hash::BuildHasherDefault<Fnv>>;

/// The lists by weight.
const WEIGHTS: [(&[&str], Word); 6] = [
    (BOILER_WORDS, Word::Boiler),
    (CHROME_WORDS, Word::Chrome(-3)),
    (CHROME_HINT_WORDS, Word::Chrome(-1)),
    (CONTENT_WORDS, Word::Content),
    (roles::COMMENT_NOUNS, Word::Comments),
    (COMMENT_WORDS, Word::Comments),
];

/// What the vocabulary says of one word: its weight, and its roles ([`roles`]' bits).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) struct Entry {
    pub word: Word,
    pub roles: u32,
}

const NEUTRAL: Entry = Entry {
    word: Word::Neutral,
    roles: 0,
};

/// The vocabulary and the role words ([`table`]).
static VOCABULARY: std::sync::LazyLock<table::Table<Entry>> = std::sync::LazyLock::new(|| {
    let mut table = table::Table::new(NEUTRAL);
    for (words, w) in WEIGHTS {
        for &word in words {
            let slot = table.slot(word);
            assert_eq!(slot.word, Word::Neutral, "{word} is listed twice");
            slot.word = w;
        }
    }
    for (words, role) in roles::ROLES {
        for &word in words {
            table.slot(word).roles |= role;
        }
    }
    table
});

/// What the vocabulary says of the word of `key`: weight and roles.
pub(super) fn entry_of(key: &WordKey) -> Entry {
    VOCABULARY.get(key)
}

/// What the vocabulary says of `w` (tests).
#[cfg(test)]
pub(super) fn entry(w: &str) -> Entry {
    entry_of(&WordKey::new(w))
}

/// Every vocabulary word with its weight, read from the lists (tests).
#[cfg(test)]
pub(super) fn listed_words() -> impl Iterator<Item = (&'static str, Word)> {
    WEIGHTS
        .into_iter()
        .flat_map(|(words, w)| words.iter().map(move |&word| (word, w)))
}

/// Splits a class or id into lower-case words and calls `f` on each: parts between
/// punctuation, with camelCase and PascalCase parts split at their humps
/// (`site-header__navWrap` → site, header, nav, wrap). Parts with digits or irregular case
/// (`x9Kd`, `hJDwNd`: generated names) say nothing and are skipped, as are parts longer than
/// 24 bytes.
///
/// One pass over the bytes: a part's bytes are classified as they are read (any byte that is
/// not an ASCII letter or digit, multi-byte characters included, ends a part), so an
/// all-lower-case part, the common case, is handed over without a second look.
pub(super) fn for_each_word(value: &str, mut f: impl FnMut(&str)) {
    let b = value.as_bytes();
    let mut i = 0;
    while let Some(&c) = b.get(i) {
        i += 1;
        // Classes seen in the part (or-ed [`PART_CLASS`] bits).
        let mut seen = PART_CLASS[c as usize];
        if seen == 0 {
            continue;
        }
        let from = i - 1;
        while let Some(&c) = b.get(i) {
            let class = PART_CLASS[c as usize];
            if class == 0 {
                break;
            }
            seen |= class;
            i += 1;
        }
        // (The byte after the part, if any, ends it: the next look starts past it.)
        if i - from > 24 || seen & DIGIT != 0 {
            continue;
        }
        // A part is ASCII letters between two character boundaries.
        let Some(part) = value.get(from..i) else {
            continue;
        };
        if seen == LOWER {
            f(part);
        } else {
            humps(part.as_bytes(), &mut f);
        }
    }
}

/// [`for_each_word`]'s byte classes: 0 ends a part.
const LOWER: u8 = 1;
const UPPER: u8 = 2;
const DIGIT: u8 = 4;
const PART_CLASS: [u8; 256] = {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let b = c as u8;
        table[c] = if b.is_ascii_lowercase() {
            LOWER
        } else if b.is_ascii_uppercase() {
            UPPER
        } else if b.is_ascii_digit() {
            DIGIT
        } else {
            0
        };
        c += 1;
    }
    table
};

/// The words of a part of ASCII letters with capitals: humps, an upper-case letter followed
/// by lower-case ones, after an optional lower-case run. Anything else (two capitals in a
/// row, a lone capital) is a hash and says nothing.
fn humps(b: &[u8], f: &mut impl FnMut(&str)) {
    let mut starts = [0usize; 24];
    let mut n = 0;
    for (i, &c) in b.iter().enumerate() {
        if c.is_ascii_uppercase() {
            if b.get(i + 1).is_none_or(|n| !n.is_ascii_lowercase()) {
                return;
            }
            starts[n] = i;
            n += 1;
        }
    }
    let mut buf = [0u8; 24];
    let mut from = 0;
    for end in starts[..n].iter().copied().chain(std::iter::once(b.len())) {
        if end > from {
            let word = &mut buf[..end - from];
            word.copy_from_slice(&b[from..end]);
            word.make_ascii_lowercase();
            f(std::str::from_utf8(word).unwrap_or(""));
        }
        from = end;
    }
}

/// Whether `s` holds the byte `a` or the byte `b`: eight bytes a step (a class is ~10 bytes;
/// `memchr2` pays its set-up for that).
pub(super) fn contains_either(s: &str, a: u8, b: u8) -> bool {
    const LOW: u64 = 0x0101_0101_0101_0101;
    const HIGH: u64 = 0x8080_8080_8080_8080;
    // Whether a byte of `x` is zero (exact: the lowest zero byte always sets its high bit).
    let has_zero = |x: u64| x.wrapping_sub(LOW) & !x & HIGH != 0;
    let mut chunks = s.as_bytes().chunks_exact(8);
    for c in &mut chunks {
        let x = u64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]);
        if has_zero(x ^ (LOW * u64::from(a))) || has_zero(x ^ (LOW * u64::from(b))) {
            return true;
        }
    }
    chunks.remainder().iter().any(|&c| c == a || c == b)
}

/// Class fragments of screen-reader-only text. (`fragments` knows the first two
/// letters of these and of [`BOILER_FRAGMENTS`]: [`PAIRS`]. The scan reads both lists by
/// their first two letters from `class_scan::BY_PAIR`, which a test holds to them.)
#[cfg(test)]
const SCREEN_READER_MARKS: [&str; 7] = [
    "sr-only",
    "sr_only",
    "visually-hidden",
    "visuallyhidden",
    "screen-reader",
    "screenreader",
    "a11ytext",
];

/// Whether `hay` contains one of [`BOILER_FRAGMENTS`] and one of [`SCREEN_READER_MARKS`]
/// (lower-case ASCII, two bytes at least), ignoring ASCII case, in one pass. Class names are
/// short: comparing where a needle's first two bytes match beats building a substring
/// searcher per needle. (The word analysis reads them in [`class_scan`]'s one pass; this
/// scan of one class is what the tests hold it to.)
#[cfg(test)]
pub(super) fn fragments(hay: &str) -> (bool, bool) {
    let h = hay.as_bytes();
    let (mut boiler, mut reader) = (false, false);
    let found = |i: usize, pair: &[u8; 2], needles: &[&str]| {
        needles.iter().any(|n| {
            let n = n.as_bytes();
            n[..2] == *pair && h.len() - i >= n.len() && h[i..i + n.len()].eq_ignore_ascii_case(n)
        })
    };
    // Every needle is four bytes or more and starts with one of [`PAIRS`]: most positions
    // stop at one table look-up of their first byte, most others at one of the next byte.
    for i in 0..h.len().saturating_sub(FRAGMENT_MIN - 1) {
        let first = PAIR_FIRST[h[i] as usize];
        if first == 0 {
            continue;
        }
        if first & PAIR_SECOND[h[i + 1] as usize] != 0 {
            let pair = [h[i].to_ascii_lowercase(), h[i + 1].to_ascii_lowercase()];
            boiler |= found(i, &pair, &BOILER_FRAGMENTS);
            reader |= found(i, &pair, &SCREEN_READER_MARKS);
            if boiler && reader {
                break;
            }
        }
    }
    (boiler, reader)
}

/// The first two letters of the fragments and marks (lower-case).
const PAIRS: [&[u8; 2]; 7] = [b"co", b"gd", b"ne", b"sr", b"vi", b"sc", b"a1"];

/// Bit `k` of entry `b`: byte `b`, ASCII lower-cased, is the first (`PAIR_FIRST`) or the
/// second (`PAIR_SECOND`) byte of `PAIRS[k]`. A position starts a pair of [`PAIRS`], either
/// case, when its byte's first bits and the next byte's second bits share a bit.
const PAIR_FIRST: [u8; 256] = pair_bits(0);
const PAIR_SECOND: [u8; 256] = pair_bits(1);

const fn pair_bits(at: usize) -> [u8; 256] {
    let mut table = [0u8; 256];
    let mut c = 0;
    while c < 256 {
        let mut k = 0;
        while k < PAIRS.len() {
            if (c as u8).to_ascii_lowercase() == PAIRS[k][at] {
                table[c] |= 1 << k;
            }
            k += 1;
        }
        c += 1;
    }
    table
}

/// Bytes of the shortest fragment or mark (`gdpr`).
#[cfg(test)]
const FRAGMENT_MIN: usize = 4;

/// Fragments that name boilerplate even inside compound words (`cmplz-cookiebanner`).
#[cfg(test)]
const BOILER_FRAGMENTS: [&str; 4] = ["cookie", "consent", "gdpr", "newsletter"];

#[cfg(test)]
mod tests;
