//! `onlyMainContent`: finds the main content of a page by scoring its blocks, then removes
//! everything else.
//!
//! 1. [`arena`]: one walk over `<body>` collects, per element, its markup hints ([`hints`]:
//!    tag, ARIA role, class/id words, hidden) and text statistics (characters, link
//!    characters, words, punctuation) of the text it owns and of its subtree.
//! 2. [`score`]: every block's text gets a value (content-like positive, chrome-like
//!    negative); subtree sums are computed bottom-up.
//! 3. [`select`]: the container is the subtree with the best sum; inside it, subtrees that
//!    cost more than they bring are pruned, as are hidden elements and form controls.
//!
//! Everything is linear in the size of the document. With `includeTags` the user chose the
//! content already: only upstream's rule ([`upstream`]) and hidden/form-control removal apply.

mod arena;
mod hints;
mod score;
mod select;
mod upstream;

use dom_query::Document;

/// Removes everything but the main content of a whole page from `doc`.
pub(crate) fn remove_non_main(doc: &Document) {
    let Some(body) = doc.body() else {
        upstream::remove_listed(doc);
        return;
    };
    let arena = arena::Arena::build(doc, body.id);
    let scores = score::score(&arena);
    let plan = select::plan(&arena, &scores);
    select::apply(doc, &arena, &plan);
}

/// Removes non-main content from an `includeTags` fragment: upstream's selector rule.
pub(crate) fn remove_non_main_fragment(doc: &Document) {
    upstream::remove_listed(doc);
}
