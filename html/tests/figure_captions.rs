//! `onlyMainContent` on article pages whose pictures carry a caption: a `<figcaption>` of
//! a sentence describing its picture goes; captions that name the picture in a few words,
//! number or source a figure, hold code, or caption no picture stay.

mod common;

use common::{assert_kept, main_content, paras_from};

#[test]
fn describing_captions_of_pictures_go() {
    let html = format!(
        r#"<body><article><h1>Lichens on Old Walls</h1>{}
        <figure><img src="/a.jpg" alt="a wall"><figcaption class="wp-element-caption">A lichen
        on the churchyard wall DESCRIBING its picture in spring.</figcaption></figure>
        <p>Middle. {}</p>
        <figure><a href="/b.jpg"><img src="/b.jpg" alt="a wall"></a><figcaption>Another
        orange lichen ALSODESCRIBING a harbour wall at dusk</figcaption></figure>
        <figure><div class="video-player"><div></div></div><figcaption>A short film
        VIDEODESCRIBING how lichens spread over a wall</figcaption></figure>
        {}</article></body>"#,
        paras_from(1, 3),
        common::PROSE,
        paras_from(4, 6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1.", "Middle.", "Part 6."],
        &["DESCRIBING", "ALSODESCRIBING", "VIDEODESCRIBING"],
    );
}

#[test]
fn naming_numbered_technical_and_picture_less_captions_stay() {
    let html = format!(
        r#"<body><article><h1>Lichens on Old Walls</h1>{}
        <figure><img src="/a.jpg" alt=""><figcaption>Xanthoria NAMEONLY</figcaption></figure>
        <figure><img src="/b.jpg" alt=""><figcaption>Figure 2. Growth of NUMBERED lichen over
        ten years of survey</figcaption></figure>
        <figure><img src="/c.jpg" alt=""><figcaption>How the CODECAPTION counter
        <code>count</code> grows each year</figcaption></figure>
        <figure><blockquote><p>Lichens are the slowest gardeners of all, and the most patient ones.</p></blockquote>
        <figcaption>— QUOTER Ann Lee, a botanist at the county survey</figcaption></figure>
        {}</article></body>"#,
        paras_from(1, 3),
        paras_from(4, 6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Part 1.",
            "Part 6.",
            "NAMEONLY",
            "NUMBERED",
            "CODECAPTION",
            "QUOTER",
        ],
        &[],
    );
}
