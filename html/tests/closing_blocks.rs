//! `onlyMainContent` on article pages: the short titled boxes a site puts after a post's
//! last paragraph ("About This Blog", "About the author") go; the same words inside the
//! post, and a sentence that merely starts with "About", stay.

mod common;

use common::{assert_kept, main_content, paras_from};

#[test]
fn an_about_box_after_the_post_goes_and_one_inside_it_stays() {
    // A blog's "About …" box under every post, its title a heading, in the post's wrapper
    // with no class to tell it. An "About …" section among the post's paragraphs stays, and
    // so does a short closing sentence that opens with "About".
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <h3>About the INSIDEHEAD species</h3>{}
        <p>About INSIDELINE two hundred walls were surveyed.</p></div>
        <div><h4>About ABOUTHEAD Gadget Blog</h4><p>ABOUTLINE is a blog about everything related
        to buying and using tech products, with a mix of information and opinion.</p></div>
        </div></body>"#,
        paras_from(1, 4),
        paras_from(5, 8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "INSIDEHEAD", "INSIDELINE"],
        &["ABOUTHEAD", "ABOUTLINE"],
    );
}

#[test]
fn a_titled_box_of_the_sites_after_the_post_goes_and_a_section_of_the_post_stays() {
    // A theme's boxes under every post, each a short title ("Follow", "More from …",
    // "Recent posts") and a line or two; a section of the post titled with the same word
    // stays, and so does a closing sentence that opens with it.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}
        <h3>Share INSIDEHEAD of the walls they cover</h3>{}
        <p>Follow INSIDELINE the stones west of the old mill, and the lichens thicken.</p></div>
        <div><h4>Follow FOLLOWHEAD</h4><p>FOLLOWLINE New posts every week, by email or on the
        feed.</p></div>
        <div><h4>More from MOREHEAD Coast Media</h4><p>MORELINE The council approves a
        bridge after years of argument.</p></div></div></body>"#,
        paras_from(1, 4),
        paras_from(5, 8)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 8. Lichens", "INSIDEHEAD", "INSIDELINE"],
        &["FOLLOWHEAD", "FOLLOWLINE", "MOREHEAD", "MORELINE"],
    );
}

#[test]
fn a_disclaimer_box_after_the_post_goes() {
    // The site's disclaimer under every post, titled and written in sentences, in the
    // post's wrapper with no class to tell it.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
        <div><h2>Disclaimer:</h2><p>DISCLAIMLINE As a service to our readers, the press
        provides access to our library of archived content. Please note the date of last
        review on all articles.</p><p>No content on this site should ever be used as a
        substitute for direct advice from a qualified expert.</p></div></div></body>"#,
        paras_from(1, 6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["DISCLAIMLINE", "No content on this site"],
    );
}

#[test]
fn a_written_by_box_after_the_post_goes() {
    // The theme's author and filing boxes under the post, each under a short title.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
        <div><h4>Written by</h4><p>WRITERLINE Jane Moss writes about stone, walls and the
        things that grow on them for the weekly.</p></div>
        <div><h4>Filed under</h4><p>FILEDLINE Nature, Walls, Stone</p></div></div></body>"#,
        paras_from(1, 6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["WRITERLINE", "FILEDLINE"],
    );
}

#[test]
fn reviewer_and_tester_boxes_after_the_post_go() {
    // A health or review site's boxes under the post: who reviewed or edited it, who
    // tested the products, each a short title over a name and a line of biography.
    for title in [
        "Article reviewed by:",
        "Medically reviewed by",
        "Edited by",
        "Meet the testers",
    ] {
        let html = format!(
            r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
            <div><h4>{title}</h4><p>REVIEWERLINE Jane Moss is a botanist who has studied
            the lichens of coastal walls for twenty years.</p></div></div></body>"#,
            paras_from(1, 6)
        );
        let out = main_content(&html);
        assert_kept(&out, &["Part 1. Lichens", "Part 6. Lichens"], &["REVIEWERLINE"]);
    }
}

#[test]
fn a_vendors_call_after_the_post_goes() {
    // A company blog's box under every post: a form's lead line or a trial offer.
    for call in [
        "Fill out the form to get a copy of our ebook.",
        "Start your free trial of the wall survey kit.",
        "Book a demo with our team.",
    ] {
        let html = format!(
            r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
            <div class="after"><p>{call} VENDORCALL</p></div></div></body>"#,
            paras_from(1, 6)
        );
        let out = main_content(&html);
        assert_kept(&out, &["Part 1. Lichens", "Part 6. Lichens"], &["VENDORCALL"]);
    }
}

#[test]
fn a_newsletter_box_titled_sign_up_with_a_hyphen_goes() {
    // "Sign-up" written with a hyphen opens the same call as "Sign up", the box's title
    // here, over two lines about what the reader gets.
    let html = format!(
        r#"<body><div class="post"><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
        <div class="postform"><h2>Sign-up To The Newsletter And Get A Free eBook NEWSBOX</h2>
        <ul><li>Sign-up to the newsletter and you will be able to download the guide for free.</li>
        <li>You will also receive tips on walls and what grows on them every week.</li></ul></div>
        </div></body>"#,
        paras_from(1, 6)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Part 1. Lichens", "Part 6. Lichens"], &["NEWSBOX"]);
}
