//! `onlyMainContent` on article pages: the furniture sites put around and after a post
//! (teasers of other posts, side columns) goes; the post, and what a page that is not
//! one article says, stays.

mod common;

use common::{assert_kept, main_content, paras};

/// Teasers of other posts: a linked title and a one-line blurb each.
fn teasers(name: &str, n: usize) -> String {
    (0..n)
        .map(|i| {
            format!(
                "<div class=\"tile\"><h3><a href=\"/{name}/{i}\">{name}{i} The council approves \
                 a bridge</a></h3><p>Residents argued for years about the crossing, and the vote \
                 was closer than anyone expected.</p></div>"
            )
        })
        .collect()
}

#[test]
fn teasers_with_blurbs_after_the_articles_body_go() {
    // A row of teasers under the post, each a title link and a blurb of a sentence: a
    // third of its text is links, too little for a headline list or a shelf of link cards,
    // and the blurbs are sentences after the body's last one; but it follows the body and
    // says less than it.
    let html = format!(
        r#"<body><div class="page"><h1>Lichens on Old Walls</h1><div class="text">{}</div>
        <div class="row"><h2>Elsewhere</h2>{}</div></div></body>"#,
        paras(8),
        teasers("TEASER", 4)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 8. Lichens"],
        &["TEASER0", "TEASER3"],
    );
}

#[test]
fn lists_after_an_introduction_that_is_a_small_part_of_the_page_stay() {
    // A hub page: an introduction of a few paragraphs, then the pieces it introduces,
    // listed with a line each. The introduction says less than a third of the page, so
    // what follows it is the page's content, not furniture of an article.
    let list = |part: usize| -> String {
        let items: String = (0..12)
            .map(|i| {
                format!(
                    "<li><a href=\"/p/{part}/{i}\">PIECE{part}x{i} Crustose lichens</a> \
                     growing flat on granite and old brick walls</li>"
                )
            })
            .collect();
        format!("<h2>Group {part}</h2><ul>{items}</ul>")
    };
    let html = format!(
        r#"<body><div class="page"><h1>Lichens</h1><div class="text">{}</div>
        <div class="pieces">{}</div></div></body>"#,
        paras(5),
        (1..=4).map(list).collect::<String>()
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "PIECE1x0", "PIECE4x11"], &[]);
}

#[test]
fn addresses_written_out_after_the_body_stay() {
    // After the post, a line and the addresses of its episodes written out as links: a
    // block of links saying less than the body, but its links are references (sources,
    // recordings) named by their address, not teasers with titles.
    let links: String = (0..5)
        .map(|i| format!("<div><a href=\"https://audio.example.org/show/ep/{i}\">https://audio.example.org/show/ep/{i}</a></div>"))
        .collect();
    let html = format!(
        r#"<body><div class="page"><h1>Lichens on Old Walls</h1><div class="text">{}</div>
        <div class="episodes">ADDRESSES Listen to the episodes of this series that walk the old walls of the town one by one:{links}</div></div></body>"#,
        paras(8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Part 1. Lichens",
            "ADDRESSES",
            "https://audio.example.org/show/ep/4",
        ],
        &[],
    );
}

#[test]
fn one_table_of_an_index_s_run_of_tables_stays() {
    // A reference page: an introduction, then tables of the items it documents under
    // headings, built from one template. The last table is short and mostly links, as
    // teasers are, but its peer table stays, so it is a part of the index, not furniture.
    let table = |name: &str, n: usize, words: &str| -> String {
        let rows: String = (0..n)
            .map(|i| {
                format!("<dt><a href=\"/{name}{i}.html\">{name}{i} LichenGrowthKind</a> <code>stable</code></dt><dd>{name}DESC{i} {words}</dd>")
            })
            .collect();
        format!("<h2>{name}</h2><dl class=\"item-table\">{rows}</dl>")
    };
    let html = format!(
        r#"<body><div class="page"><h1>Module lichens</h1><div class="docblock">{}</div>
        {}{}</div></body>"#,
        paras(8),
        table(
            "STRUCT",
            6,
            "A partnership of a fungus and an alga that grows on stone, bark and old brick, \
             measured by its area and the colour of its thallus."
        ),
        table("ENUM", 4, "A growth.")
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "STRUCTDESC5", "ENUMDESC0", "ENUMDESC3"],
        &[],
    );
}

/// A short post: three paragraphs, under the length that makes a page read as an article.
fn short_post() -> String {
    "<h1>Moss on the North Wall</h1><p>POSTTEXT Moss grows on the north side of old walls, \
     where the sun never dries the stone.</p><p>It holds water for weeks and feeds the \
     lichens below it.</p>"
        .to_string()
}

#[test]
fn a_list_titled_as_pointers_to_other_pages_goes() {
    // After a short post, "Recommended reading" and a list of other posts' titles: the title
    // says what it is, and the list is all links.
    let items: String = (0..5)
        .map(|i| format!("<li><a href=\"/p/{i}\">OTHERPOST{i} Ferns in the city</a></li>"))
        .collect();
    // Notes in boxes of their own: prose, but no run of paragraphs under one element, so
    // the page does not read as an article and the headline-list rules stay out of it.
    let filler: String = (1..=12)
        .map(|i| {
            format!(
                "<div class=\"note\">{}</div>",
                paras(i).split("</p>").nth(i - 1).unwrap_or("")
            )
        })
        .collect();
    let html = format!(
        r#"<body><div class="page"><div class="post">{}
        <div class="more"><h3>Recommended reading</h3><ul>{items}</ul></div>
        <div class="photos">{filler}</div></div></div></body>"#,
        short_post()
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["POSTTEXT", "Part 12. Lichens"],
        &["Recommended reading", "OTHERPOST0", "OTHERPOST4"],
    );
}

#[test]
fn a_related_list_inside_the_articles_body_stays() {
    // The author's own "Related resources" inside the article's body stay.
    let items: String = (0..4)
        .map(|i| format!("<li><a href=\"/r/{i}\">RESOURCE{i} A field guide</a></li>"))
        .collect();
    let html = format!(
        r#"<body><div class="page"><div class="text">{}<p><strong>Related resources:</strong></p><ul>{items}</ul>{}</div>
        <div class="foot">{}</div></div></body>"#,
        paras(5),
        paras(3).replace("Part ", "Section "),
        "<p>Site notes.</p>".repeat(3)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Part 5. Lichens",
            "Section 3. Lichens",
            "Related resources",
            "RESOURCE0",
            "RESOURCE3",
        ],
        &[],
    );
}

/// A short post (three paragraphs, under the run of prose that reads as an article) and
/// a row of four teasers after it, each a linked title and a blurb of a few words; `head` goes
/// into the page's `<head>`.
fn short_post_page(head: &str) -> String {
    let teasers: String = (0..4)
        .map(|i| {
            format!(
                "<div class=\"tile\"><h3><a href=\"/t/{i}\">TEASER{i} The council approves a \
                 bridge</a></h3><p>The vote, once again, was close.</p></div>"
            )
        })
        .collect();
    format!(
        r#"<html><head>{head}</head><body><div class="page"><h1>Lichens on Old Walls</h1>
        <div class="text">{}</div><div class="row">{teasers}</div></div></body></html>"#,
        paras(3)
    )
}

#[test]
fn a_short_post_declared_as_an_article_loses_the_teasers_after_it() {
    // Three paragraphs do not read as an article, but the head says the page is one
    // (Open Graph, or JSON-LD): the teasers after the post are its furniture.
    for head in [
        r#"<meta property="og:type" content="article">"#,
        r#"<script type="application/ld+json">{"@type": "BlogPosting"}</script>"#,
    ] {
        let out = main_content(&short_post_page(head));
        assert_kept(
            &out,
            &["Part 1. Lichens", "Part 3. Lichens"],
            &["TEASER0", "TEASER3"],
        );
    }
}

#[test]
fn a_short_text_not_declared_as_an_article_keeps_what_follows_it() {
    // The same page without the declaration, or declared a collection as well (a
    // category page whose CMS writes `og:type article` on every page): what follows the
    // short text may be the page's content.
    for head in [
        "",
        r#"<meta property="og:type" content="article"><script type="application/ld+json">
           {"@type": "CollectionPage"}</script>"#,
    ] {
        let out = main_content(&short_post_page(head));
        assert_kept(&out, &["Part 1. Lichens", "TEASER0", "TEASER3"], &[]);
    }
}

#[test]
fn a_side_column_of_teaser_cards_beside_the_article_goes() {
    // Two columns: the post (a run of paragraphs) and a side column of cards, each a
    // date, a linked title and a one-sentence blurb. The blurbs together are as much prose
    // as the post, so no element holds most of the page's paragraphs; the post's run of
    // paragraphs is the body, and the cards beside it go.
    let cards: String = (0..7)
        .map(|i| {
            format!(
                "<div class=\"entry\"><p class=\"date\">November {i}</p><h5><a href=\"/p/{i}\">\
                 CARD{i} A lie that is good for password security</a></h5><p class=\"summary\">\
                 Blurb {i}: an unrelated answer to a security question makes a password easy to \
                 remember.</p></div>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><div class="wrap"><div class="a"><div class="post"><h1>Lichens</h1>
        <div class="text">{}</div></div></div>
        <div class="c"><div class="box"><h4>Recent Posts</h4>{cards}</div></div></div></body>"#,
        paras(5)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 5. Lichens"],
        &["CARD0", "CARD6", "unrelated answer"],
    );
}

#[test]
fn the_box_about_the_author_inside_the_posts_body_goes() {
    // The writer's biography ends the post, inside its body (`entry-content`), in a box
    // named `about-the-author`, `mini-bio` or `post-body-bio`: it is not the story.
    for class in ["wp-about-the-author", "mini-bio", "post-body-bio", "biography"] {
        let html = format!(
            r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry-content">{}
            <div class="{class}"><p>BIOGRAPHY Sam Reed is a freelance writer who lives by the
            sea with two dogs, and writes about moss, stone and the patience of small things
            for several magazines.</p></div></div></div></body>"#,
            paras(8)
        );
        let out = main_content(&html);
        assert_kept(&out, &["Part 1. Lichens", "Part 8. Lichens"], &["BIOGRAPHY"]);
    }
}

#[test]
fn an_articles_sections_named_from_one_chrome_worded_template_stay() {
    // A long text cut into sections that all carry one class with a chrome word in it
    // (`toc-part`: the sections a table of contents points at). No section holds a
    // quarter of the page's prose, so none is content on its own share; together they
    // are the page. A short hero before them must not win.
    let html = chaptered_page(|i| {
        format!(
            "<section class=\"toc-part chapter-{i}\"><h2>Chapter {i}</h2>{}</section>",
            paras(2)
        )
    });
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Chapter 1", "Chapter 6", "Part 1. Lichens", "Part 2. Lichens"],
        &["Contact"],
    );
}

#[test]
fn an_articles_text_inside_its_header_element_stays() {
    // The article's text sits in the `<header>` of the article element (a template that
    // puts the title, the lead and the body together), after it a carousel of linked
    // photos. A `<header>` holding most of the page's prose is no banner: the text stays,
    // the carousel of links does not win. (The site's footer holds enough plain text that
    // the header is not most of the page's.)
    let photos: String = (0..8)
        .map(|i| {
            format!("<li><a href=\"/photos/{i}\"><img src=\"/p{i}.jpg\">PHOTO{i} A wall in spring</a></li>")
        })
        .collect();
    let html = format!(
        r#"<body><header><nav><a href="/">Home</a> <a href="/news">News</a></nav></header>
        <article><header class="article-header"><h1>Lichens on Old Walls</h1>
        <div>{}</div></header><div class="gallery"><ul>{photos}</ul></div></article>
        <footer><p>{}</p></footer></body>"#,
        paras(3),
        "The site is run by volunteers who photograph walls, roofs and gravestones in \
         every season and write up what they find for anyone who cares to read it. "
            .repeat(3)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "Part 3. Lichens"], &[]);
}

#[test]
fn an_articles_sections_named_with_a_boilerplate_word_stay() {
    // The same text whose sections each carry `skip-item` (the targets of "skip to"
    // links): `skip` names boilerplate (skip links), but sections of one template that
    // are prose, in a holder of the page's prose, are the text.
    let html = chaptered_page(|i| {
        format!(
            "<div class=\"skip-item\" id=\"topic{i}\"><h2>Chapter {i}</h2>{}</div>",
            paras(2)
        )
    });
    let out = main_content(&html);
    assert_kept(&out, &["Chapter 1", "Chapter 6", "Part 2. Lichens"], &["Contact"]);
}

/// A page whose text is six chapters written by `section` (given 1 to 6), after a
/// short hero, between a site nav and a footer of links.
fn chaptered_page(section: impl Fn(u32) -> String) -> String {
    let sections: String = (1..=6).map(section).collect();
    format!(
        r#"<body><nav><a href="/">Home</a> <a href="/about">About</a></nav>
        <div class="page"><div class="hero"><h1>Lichens on Old Walls</h1>
        <p>A field guide, in six short chapters.</p></div>
        <div class="chapters">{sections}</div></div>
        <footer><a href="/contact">Contact</a></footer></body>"#
    )
}

/// A post of `body_paras` paragraphs followed, in the same `main`, by a carousel of
/// `cards` teaser cards (another post's linked headline, a date, `blurb(i)`).
fn carousel_after_post(cards: usize, body_paras: usize, blurb: impl Fn(usize) -> String) -> String {
    let cards: String = (0..cards)
        .map(|i| {
            format!(
                "<div class='slide'><div class='item'><h3><a href='/blog/p{i}'>Desk guide number {i}: \
                 cables and trays</a></h3><span>Feb {i}, 2026</span><p>{}</p></div></div>",
                blurb(i)
            )
        })
        .collect();
    let body = paras(body_paras);
    format!(
        r#"<body><main><section class="post"><h1>How to mount a desk tray</h1>{body}</section>
        <section class="blog-carousel"><h2>Blog</h2><div class="track">{cards}</div></section></main>
        <footer><a href="/terms">Terms</a></footer></body>"#
    )
}

#[test]
fn a_carousel_of_teaser_cards_after_the_post_goes() {
    // After the post, the blog's carousel of other posts: each card a linked headline, a
    // date and a two-sentence blurb. The blurbs are prose, so the shelf is not made of
    // links; the cards' headlines pointing elsewhere and the shelf standing after the body
    // say what it is.
    let html = carousel_after_post(6, 6, |i| {
        format!(
            "Teaser blurb {i} tells the reader what the other post covers, from tray sizes to \
             clamps, in a couple of sentences."
        )
    });
    let out = main_content(&html);
    assert_kept(
        &out,
        &["mount a desk tray", "Part 1. Lichens", "Part 6. Lichens"],
        &["Teaser blurb", "Desk guide number"],
    );
}

#[test]
fn photo_credits_go_with_the_describing_caption() {
    // A photograph inside the story: its credit (the agency, the photographer) is a label
    // of the picture, not a sentence of the article; on an article page a caption of a
    // sentence describing the picture goes too (figure_captions; captions naming the
    // picture in a few words stay: tests/figure_captions.rs).
    let html = format!(
        r#"<body><article><h1>Lichens on Old Walls</h1>{}
        <figure><img src="/wall.jpg" alt=""><figcaption>A wall near the harbour, covered in
        orange CAPTION lichen.<span class="photo-credit">CREDITNAME Smith/Agency</span>
        </figcaption></figure>{}</article></body>"#,
        paras(4),
        paras(3)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens"], &["CREDITNAME", "CAPTION lichen"]);
}

#[test]
fn a_posts_metadata_line_goes() {
    // The theme's line after the post: when it was posted, where it is filed, how to follow
    // the responses. Written in sentences, with two links among many words, it passes
    // for prose; its class says what it is.
    let html = format!(
        r#"<body><div class="post"><h2>Lichens on Old Walls</h2><div class="entry">{}</div>
        <p class="postmetadata alt"><small>This POSTEDLINE entry was posted on Monday and is
        filed under <a href="/c/walls">Walls</a>. You can follow any responses to this entry
        through the <a href="/feed">feed</a>, and both comments and pings are open for now.
        </small></p></div></body>"#,
        paras(5)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "Part 5. Lichens"], &["POSTEDLINE"]);
}

#[test]
fn teaser_cards_with_long_blurbs_after_the_post_go() {
    // The same carousel with longer blurbs (a paragraph each, some 700 characters a card):
    // still other posts' headlines with their summaries, not sections of this one.
    let html = carousel_after_post(4, 25, |i| {
        format!(
            "Teaser blurb {i} tells the reader what the other post covers, from tray \
             sizes to clamps and the screws that hold them. "
        )
        .repeat(6)
    });
    let out = main_content(&html);
    assert_kept(
        &out,
        &["mount a desk tray", "Part 1. Lichens", "Part 25. Lichens"],
        &["Teaser blurb", "Desk guide number"],
    );
}

#[test]
fn the_link_to_the_previous_post_goes() {
    // Under the post, the link to the previous one with its full title and a sentence of
    // its opening: long enough to pass for a short paragraph; its class says what it is.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1>{}
        <div class="prev"><a href="/older">PREVPOST Mosses of the north shore, and how the
        rain feeds them</a> The shore is wet for most of the year, and the mosses there grow
        thick on every stone.</div></div></body>"#,
        paras(5)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "Part 5. Lichens"], &["PREVPOST"]);
}

#[test]
fn trackbacks_after_the_post_go() {
    // Trackbacks are other blogs' notes that they linked here: replies, not the post.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1>{}
        <ol class="trackbacks"><li>TRACKBACKNOTE from a garden diary: we wrote about the old
        wall too, and the lichens on its northern face were the oldest we have seen.</li>
        <li>Another diary: a note on the same wall, with photographs of the orange crusts
        taken in the winter light.</li></ol></div></body>"#,
        paras(5)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "Part 5. Lichens"], &["TRACKBACKNOTE"]);
}

#[test]
fn a_photo_gallery_beside_the_story_goes() {
    // A strip of photographs with their captions, named a gallery: pictures to browse,
    // whose captions are labels rather than the story's sentences.
    let shots: String = (0..5)
        .map(|i| {
            format!(
                "<div class='gallery-item'><img src='/p{i}.jpg' alt=''><p>GALLERYSHOT {i}: the \
                 harbour wall seen from the east, in the morning.</p></div>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><div class="story"><h1>Lichens on Old Walls</h1>{}
        <div class="photo-gallery">{shots}</div>{}</div></body>"#,
        paras(4),
        paras(3)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Lichens on Old Walls"],
        &["GALLERYSHOT"],
    );
}

#[test]
fn an_author_box_named_in_one_word_goes() {
    // The box about the writer after the post, named by an author-box plugin in one word
    // (`authorbox`, `saboxplugin-wrap`): a paragraph of biography in sentences.
    for class in ["authorbox", "saboxplugin-wrap"] {
        let html = format!(
            r#"<body><article><h1>Lichens on Old Walls</h1>{}
            <div class="{class}"><div class="name">Ana Ruiz</div><div class="desc"><p>AUTHORBIO
            Ana Ruiz has walked the coast for twenty years and writes about the plants and
            lichens she finds on its old walls and stones.</p></div></div></article></body>"#,
            paras(5)
        );
        let out = main_content(&html);
        assert_kept(&out, &["Part 1. Lichens", "Part 5. Lichens"], &["AUTHORBIO"]);
    }
}

#[test]
fn a_small_form_inside_the_article_goes() {
    // A download form dropped into a short post: its fields' labels and help lines, some
    // written as sentences, hold a good part of the page's text (enough for a form around
    // a thread or a product grid to be the page), but a form this small is never the
    // article's text.
    let help = |i: usize| {
        format!(
            "<div class=\"field\"><label>Field {i}</label><input name=\"f{i}\"><div \
             class=\"help\">FORMHELP {i}: we use this answer for your request only, and \
             delete it after a month.</div></div>"
        )
    };
    let html = format!(
        r#"<head><meta property="og:type" content="article"></head><body><article>
        <h1>Lichens on Old Walls</h1>{}<form action="/get"><div class="form-body">{}{}{}
        </div></form></article></body>"#,
        paras(3),
        help(1),
        help(2),
        help(3)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "Part 3. Lichens"], &["FORMHELP"]);
}

#[test]
fn a_call_to_the_reader_after_the_post_goes_and_one_inside_it_stays() {
    // "If you enjoyed this post…" after the body's last paragraph, in its own small block:
    // a theme's line under every post. The same opening among the post's paragraphs is
    // the author's.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <p>If you enjoyed INSIDECALL walks like this one, the lichens of the harbour wall are
        worth a morning of your time in the autumn light, and so are the mosses.</p>{}</div>
        <div class="after"><p>If you enjoyed READERCALL this post, please <a href="/feed">subscribe
        to the feed</a>.</p></div><p>Never miss NEVERMISS a walk: one email a month.</p></div>
        </body>"#,
        paras(3),
        paras(2)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "INSIDECALL"],
        &["READERCALL", "NEVERMISS"],
    );
}

#[test]
fn a_copyright_line_after_the_post_goes() {
    // The site's notices under every post: a copyright line, the platform's credit.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
        <div class="legal"><p>All rights reserved RIGHTSLINE 2006-2010 Coast Media.</p></div>
        <p>&copy; 2012 COPYLINE Coast Media.</p><div>Powered by POWEREDLINE Press</div></div></body>"#,
        paras(6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["RIGHTSLINE", "COPYLINE", "POWEREDLINE"],
    );
}
