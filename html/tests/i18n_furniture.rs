//! `onlyMainContent` on non-English article pages: the furniture labels the English rules
//! know, written in the page's language, go the same way (a German "12 Kommentare" thread,
//! a French "À lire aussi" box, a Japanese "関連記事" list, Spanish and Russian "read also"
//! lines, a German share bar, Portuguese tags, a French newsletter call); the same words
//! inside the article's sentences stay.

mod common;

use common::{assert_kept, main_content};

/// `n` paragraphs of prose in a language: "`{label} 1. {sentence}`" to "`{label} n. …`".
fn prose(label: &str, sentence: &str, n: usize) -> String {
    (1..=n)
        .map(|i| format!("<p>{label} {i}. {sentence}</p>"))
        .collect()
}

const DE: &str = "Flechten wachsen langsam auf altem Stein, und eine Mauer kann Dutzende Arten \
    tragen. Jede ist eine Partnerschaft aus einem Pilz und einer Alge, deshalb überleben sie dort, \
    wo sonst nichts wächst.";
const FR: &str = "Les lichens poussent lentement sur la vieille pierre, et un mur peut en porter \
    des dizaines d'espèces. Chacun est une association entre un champignon et une algue, ce qui \
    explique qu'ils survivent là où rien d'autre ne pousse.";
const ES: &str = "Los líquenes crecen despacio sobre la piedra vieja, y un muro puede albergar \
    decenas de especies. Cada uno es una asociación entre un hongo y un alga, por eso sobreviven \
    donde nada más crece.";
const PT: &str = "Os líquenes crescem devagar na pedra velha, e um muro pode abrigar dezenas de \
    espécies. Cada um é uma parceria entre um fungo e uma alga, por isso sobrevivem onde nada \
    mais cresce.";
const RU: &str = "Лишайники медленно растут на старом камне, и одна стена может нести десятки \
    видов. Каждый из них — союз гриба и водоросли, поэтому они выживают там, где больше ничего \
    не растёт.";
const JA: &str = "地衣類は古い石の上でゆっくりと育ち、一つの壁に何十種類もの地衣類が見られることがあります。\
    それぞれが菌類と藻類の共生体であり、だからこそ他の何も育たない場所でも生き延びるのです。";

#[test]
fn a_german_comment_thread_under_a_kommentare_heading_goes() {
    // No class names: a heading "12 Kommentare" titles the readers' comments, which follow
    // as plain siblings.
    let comments: String = (0..12)
        .map(|i| {
            format!(
                "<div id='c{i}'><p>KOMMENTAR{i} Bei uns ist die alte Friedhofsmauer jeden Winter \
                 mit orangen und grauen Flecken bedeckt.</p></div><p>Geschrieben von: Leser {i}</p>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><div id="center"><div class="content"><h2>Flechten auf alten Mauern</h2>{}
        <h2>12 Kommentare</h2>{comments}</div></div></body>"#,
        prose("Teil", DE, 2)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Flechten auf alten Mauern", "Teil 2. Flechten"],
        &["KOMMENTAR0", "KOMMENTAR11", "12 Kommentare"],
    );
}

/// A short post, then a titled list of other posts, then notes in boxes of their own
/// (prose, but not a run of paragraphs under one element; two sentences each, so that
/// the list is a small part of the page in any script).
fn titled_list_page(title: &str, sentence: &str) -> String {
    let items: String = (0..5)
        .map(|i| {
            format!(
                "<li><a href=\"/p/{i}\">AUTREPOST{i} {}</a></li>",
                sentence.chars().take(20).collect::<String>()
            )
        })
        .collect();
    let filler: String = (1..=12)
        .map(|i| format!("<div class=\"note\"><p>Note {i}. {sentence} {sentence}</p></div>"))
        .collect();
    format!(
        r#"<body><div class="page"><div class="post"><h1>POSTTITLE</h1>
        <p>POSTTEXT {sentence}</p><p>{sentence}</p>
        <div class="bloc"><h3>{title}</h3><ul>{items}</ul></div>
        <div class="photos">{filler}</div></div></div></body>"#
    )
}

#[test]
fn a_french_a_lire_aussi_list_goes() {
    let out = main_content(&titled_list_page("À lire aussi", FR));
    assert_kept(
        &out,
        &["POSTTEXT", "Note 12."],
        &["À lire aussi", "AUTREPOST0", "AUTREPOST4"],
    );
}

#[test]
fn a_japanese_kanren_kiji_list_goes() {
    let out = main_content(&titled_list_page("関連記事", JA));
    assert_kept(
        &out,
        &["POSTTEXT", "Note 12."],
        &["関連記事", "AUTREPOST0", "AUTREPOST4"],
    );
}

#[test]
fn spanish_and_russian_read_also_lines_inside_the_post_go() {
    for (label, sentence, word) in [
        ("Artículos relacionados:", ES, "Parte"),
        ("Te puede interesar:", ES, "Parte"),
        ("Читайте также:", RU, "Часть"),
        ("Похожие статьи:", RU, "Часть"),
    ] {
        let html = format!(
            r#"<body><div class="post"><h1>Título</h1><div class="entry">{}
            <p><strong>{label}</strong> <a href="/otro">ALSOLINK {}</a></p>{}</div></div></body>"#,
            prose(word, sentence, 3),
            sentence.chars().take(30).collect::<String>(),
            prose(&format!("{word}b"), sentence, 3)
        );
        let out = main_content(&html);
        assert_kept(
            &out,
            &[&format!("{word} 1."), &format!("{word}b 3.")],
            &["ALSOLINK"],
        );
    }
}

#[test]
fn a_german_share_bar_after_the_post_goes() {
    let html = format!(
        r#"<body><div class="post"><h1>Flechten auf alten Mauern</h1><div class="entry">{}</div>
        <div class="leiste"><span>Teilen</span> <span>SHAREBAR</span></div></div></body>"#,
        prose("Teil", DE, 5)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Teil 1. Flechten", "Teil 5. Flechten"], &["SHAREBAR"]);
}

#[test]
fn portuguese_and_german_tag_lines_after_the_post_go() {
    for (label, sentence, word) in [("Marcadores:", PT, "Parte"), ("Schlagwörter:", DE, "Teil")] {
        let html = format!(
            r#"<body><div class="post"><h1>Título</h1><div class="entry">{}</div>
            <p>{label} TAGLINE muros, pedras, musgos</p></div></body>"#,
            prose(word, sentence, 5),
        );
        let out = main_content(&html);
        assert_kept(
            &out,
            &[&format!("{word} 1."), &format!("{word} 5.")],
            &["TAGLINE"],
        );
    }
}

#[test]
fn a_french_newsletter_call_after_the_post_goes() {
    let html = format!(
        r#"<body><div class="post"><h1>Les lichens des vieux murs</h1><div class="entry">{}</div>
        <div class="apres"><p>Inscrivez-vous à notre newsletter NEWSCALL pour recevoir chaque
        semaine nos balades.</p></div></div></body>"#,
        prose("Partie", FR, 5)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Partie 1. Les lichens", "Partie 5. Les lichens"],
        &["NEWSCALL"],
    );
}

#[test]
fn the_same_words_inside_sentences_stay() {
    // Prose that uses the labels' words mid-sentence, and a heading that opens with one
    // without being the label ("Kommentar: …" titles an opinion piece's section).
    let html = format!(
        r#"<body><div class="post"><h1>Flechten auf alten Mauern</h1><div class="entry">{}
        <h2>Kommentar: Was die Mauern erzählen</h2>
        <p>Die Kommentare INSIDEDE der Leser zeigen, dass viele ihre Mauern teilen und die
        ähnliche Artikel über Moose lesen, bevor sie weiterlesen.</p>{}
        <p>À lire aussi INSIDEFR les carnets du jardinier, qui partagent les commentaires de
        leurs lecteurs sur chaque mur.</p>{}</div></div></body>"#,
        prose("Teil", DE, 3),
        prose("Teilb", DE, 3),
        prose("Teilc", DE, 2)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &[
            "Teil 1.",
            "Teilc 2.",
            "Kommentar: Was die Mauern",
            "INSIDEDE",
            "INSIDEFR",
        ],
        &[],
    );
}

#[test]
fn a_comment_section_named_in_german_after_the_post_goes() {
    // No heading: the section's class names it, in the site's language.
    let comments: String = (0..8)
        .map(|i| {
            format!(
                "<div class='eintrag'><p class='autor'>Leser {i}</p><p>KLASSE{i} Bei uns ist                  die alte Friedhofsmauer jeden Winter mit orangen und grauen Flecken bedeckt,                  und im Frühjahr kommen die Moose dazu.</p></div>"
            )
        })
        .collect();
    let html = format!(
        r#"<body><div class="seite"><article><h1>Flechten auf alten Mauern</h1>{}</article>
        <div class="kommentare">{comments}</div></div></body>"#,
        prose("Teil", DE, 4)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Teil 1. Flechten", "Teil 4. Flechten"],
        &["KLASSE0", "KLASSE7"],
    );
}

#[test]
fn a_german_reading_time_line_goes() {
    let html = format!(
        r#"<body><div class="post"><h1>Flechten auf alten Mauern</h1>
        <div class="meta"><span>2. Mai 2024</span><div>5 Min. Lesezeit LESEZEIT</div></div>
        <div class="entry">{}</div></div></body>"#,
        prose("Teil", DE, 6)
    );
    let out = main_content(&html);
    assert_kept(&out, &["Teil 1. Flechten", "Teil 6. Flechten"], &["LESEZEIT"]);
}

#[test]
fn an_articles_last_section_titled_with_a_comment_noun_stays() {
    // "Comentarios finales" (closing remarks) titles the author's last section: a comment
    // noun followed by more words is no comment section's title.
    let html = format!(
        r#"<body><div class="post"><h1>Los líquenes de los muros viejos</h1><div class="entry">{}
        <h2>Comentarios finales</h2>{}</div></div></body>"#,
        prose("Parte", ES, 4),
        prose("Final", ES, 2)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Parte 1.", "Comentarios finales", "Final 1.", "Final 2."],
        &[],
    );
}
