//! Parts of the article's wrapper that are not the article: headline lists beside the
//! post inside one wrapper with it and its comments; an `<aside>` beside the element the
//! page names as its article.

mod common;

use common::{PROSE, assert_kept, main_content, paras, paras_from};

/// A side list of headline links under a short title.
fn headline_list(title: &str, n: usize) -> String {
    let items: String = (1..=n)
        .map(|i| format!("<li><a href=\"/{title}/{i}\">{title} story number {i} of the archive</a></li>"))
        .collect();
    format!("<div class=\"box\"><div class=\"box-title\">{title}...</div><ul>{items}</ul></div>")
}

/// A comment thread whose replies are prose (they weigh as much as the post).
fn thread(n: usize) -> String {
    let replies: String = (1..=n)
        .map(|i| format!("<li class=\"comment\" id=\"comment-{i}\"><p>Reply {i}. {PROSE}</p></li>"))
        .collect();
    format!("<h3>{n} Comments</h3><ol class=\"commentlist\">{replies}</ol>")
}

/// A box of sponsored offers written as prose (chrome by its name).
fn offers(n: usize) -> String {
    let slides: String = (1..=n)
        .map(|i| format!("<div class=\"slide\"><p>Offer {i}. {PROSE}</p></div>"))
        .collect();
    format!("<div class=\"sponsored-offers\">{slides}</div>")
}

/// `#main` holding one wrapper with the post and its thread, and a side column of
/// sponsored offers and headline lists beside them: counted with the thread and the
/// offers, the post is not the wrapper's prose; once they are gone, it is.
fn page(post_paras: usize) -> String {
    format!(
        "<html><body><div id=\"main\"><div id=\"content\">\
         <div id=\"post-area\"><div class=\"entry\"><h1>A walk along the old wall</h1>{}</div>\
         <div id=\"comments\">{}</div></div>\
         <div id=\"side-area\">{}{}{}</div>\
         </div></div></body></html>",
        paras(post_paras),
        thread(3),
        offers(4),
        headline_list("Recent", 6),
        headline_list("Favourites", 5),
    )
}

#[test]
fn headline_lists_beside_the_post_inside_its_wrapper_go() {
    let out = main_content(&page(5));
    assert_kept(
        &out,
        &["A walk along the old wall", "Part 1.", "Part 5."],
        &[
            "Reply 1.",
            "Offer 2.",
            "Recent story number 2",
            "Recent...",
            "Favourites story number 4",
        ],
    );
}

#[test]
fn a_reading_list_inside_the_post_stays() {
    let list: String = (1..=4)
        .map(|i| format!("<li><a href=\"/read/{i}\">Further reading number {i} on lichens</a></li>"))
        .collect();
    let html = format!(
        "<html><body><div id=\"main\"><div id=\"content\">\
         <div id=\"post-area\"><div class=\"entry\"><h1>Lichens</h1>{}<ul>{list}</ul>{}</div>\
         <div id=\"comments\">{}</div></div>\
         </div></div></body></html>",
        paras(2),
        paras(1).replace("Part 1.", "Part 9."),
        thread(4),
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1.", "Part 9.", "Further reading number 3"],
        &["Reply 2."],
    );
}

/// A live feed of dated items with blurbs of prose, long enough to be half the page.
fn live_feed(n: usize) -> String {
    let items: String = (1..=n)
        .map(|i| {
            format!(
                "<li><a href=\"/live/{i}\">12:{i:02}</a> <a href=\"/live/{i}\">Update {i} from the desk</a>\
                 <p>Blurb {i}. {PROSE}</p></li>"
            )
        })
        .collect();
    format!("<ul class=\"feed\">{items}</ul>")
}

fn article_with_aside(aside_in_article: bool) -> String {
    let aside = format!("<aside><h2>Live</h2>{}</aside>", live_feed(8));
    let (inside, beside) = if aside_in_article {
        (aside.as_str(), "")
    } else {
        ("", aside.as_str())
    };
    format!(
        "<html><body><div id=\"page\"><div class=\"columns\">\
         <article><h1>Stone walls</h1><div itemprop=\"articleBody\">{}{inside}</div></article>\
         {beside}</div></div></body></html>",
        paras(5),
    )
}

#[test]
fn an_aside_beside_the_named_article_goes() {
    let out = main_content(&article_with_aside(false));
    assert_kept(
        &out,
        &["Stone walls", "Part 1.", "Part 5."],
        &["Blurb 1.", "Update 3 from the desk"],
    );
}

#[test]
fn an_aside_inside_the_named_article_stays() {
    let out = main_content(&article_with_aside(true));
    assert_kept(&out, &["Part 1.", "Part 5.", "Blurb 2."], &[]);
}

/// A post (inside `#main`, with a note after it) whose element also holds a titled list
/// of links after its last paragraph, or between its paragraphs.
fn post_with_pointers(at_end: bool) -> String {
    let list: String = (1..=4)
        .map(|i| format!("<li><a href=\"/other/{i}\">Another story number {i} on the site</a></li>"))
        .collect();
    let pointers = format!("<p><strong>Related content:</strong></p><ul>{list}</ul>");
    let (middle, end) = if at_end {
        (String::new(), pointers)
    } else {
        (pointers, String::new())
    };
    format!(
        "<html><body><div id=\"main\"><div class=\"story\"><h1>Walls</h1>\
         <div class=\"story-body\">{}{middle}{}{end}</div>\
         <p class=\"note\">A note on the photographs. {PROSE}</p></div></div></body></html>",
        paras(6),
        paras_from(7, 12),
    )
}

#[test]
fn a_titled_list_of_links_after_the_body_s_last_paragraph_goes() {
    let out = main_content(&post_with_pointers(true));
    assert_kept(
        &out,
        &["Part 1.", "Part 6."],
        &["Related content:", "Another story number 2"],
    );
}

#[test]
fn a_titled_list_of_links_between_the_body_s_paragraphs_stays() {
    let out = main_content(&post_with_pointers(false));
    assert_kept(&out, &["Part 1.", "Part 12.", "Another story number 2"], &[]);
}

/// A post followed by pictures, each with the same line under it (or a field's name with
/// a colon, as a guide writes in every part).
fn gallery_post(label: &str) -> String {
    let photos: String = (1..=6)
        .map(|i| {
            format!(
                "<div class=\"photo\"><img src=\"/p/{i}.jpg\" alt=\"\"><div class=\"label\">{label}</div>\
                 <p>Wall number {i}. {PROSE}</p></div>"
            )
        })
        .collect();
    format!(
        "<html><body><div class=\"post\"><h1>Walls in pictures</h1>{}{photos}</div></body></html>",
        paras(6)
    )
}

#[test]
fn a_line_repeated_under_every_picture_goes() {
    let out = main_content(&gallery_post("Hover over the photo to load its notes"));
    assert_kept(&out, &["Part 1.", "Wall number 6."], &["Hover over the photo"]);
}

#[test]
fn a_field_name_repeated_in_every_part_stays() {
    let out = main_content(&gallery_post(
        "<strong>Best season to visit:</strong> early spring",
    ));
    assert_kept(&out, &["Part 1.", "Wall number 6.", "Best season to visit:"], &[]);
}

/// Teaser cards of other posts: a linked headline and a one-sentence blurb each.
fn teaser_cards(n: usize) -> String {
    (1..=n)
        .map(|i| {
            format!(
                "<div class=\"card\"><h2><a href=\"/post/{i}\">Earlier post {i}: the council approves a \
                 bridge</a></h2><p>Residents argued for years about the crossing, and the vote was \
                 closer than anyone expected.</p></div>"
            )
        })
        .collect()
}

#[test]
fn a_shelf_of_teasers_above_the_post_goes() {
    let html = format!(
        "<html><body><div id=\"main\"><div class=\"latest\">{}</div>\
         <div class=\"post\"><h1>Stone walls</h1>{}</div></div></body></html>",
        teaser_cards(4),
        paras(8),
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Stone walls", "Part 1.", "Part 8."],
        &["Earlier post 2", "Residents argued"],
    );
}

#[test]
fn a_grid_of_cards_above_a_shorter_closing_text_stays() {
    let html = format!(
        "<html><body><div id=\"main\"><div class=\"latest\">{}</div>\
         <div class=\"about\"><h2>About these posts</h2>{}</div></div></body></html>",
        teaser_cards(12),
        paras(4),
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1.", "Earlier post 2", "Earlier post 11"], &[]);
}
