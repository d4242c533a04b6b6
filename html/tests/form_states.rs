//! `onlyMainContent` and a form's state messages: the blocks a form builder writes beside
//! a form for after it is sent ("Thank you! Your submission has been received!", "Oops!
//! Something went wrong…"), hidden by the page's stylesheet until then, go on any page;
//! a block beside a form that is not named as one of its states stays.

mod common;

use common::{assert_kept, main_content, paras};

#[test]
fn a_forms_done_and_fail_messages_go_on_an_article_page() {
    let html = format!(
        r#"<body><article><h1>Lichens on Old Walls</h1><div class="entry">{}</div>
        <div class="w-form"><form><input type="email" name="email"/>
        <input type="submit" value="Subscribe"/></form>
        <div class="w-form-done"><div>DONEMSG Thank you! Your submission has been received!</div></div>
        <div class="w-form-fail"><div>FAILMSG Oops! Something went wrong while submitting the form.</div></div>
        </div></article></body>"#,
        paras(6)
    );
    let out = main_content(&html);
    assert_kept(
        &out,
        &["Part 1. Lichens", "Part 6. Lichens"],
        &["DONEMSG", "FAILMSG"],
    );
}

#[test]
fn state_messages_named_form_message_success_go_and_a_note_beside_a_form_stays() {
    // A page that does not read as an article (a service's short sections); the state
    // blocks are named `form_message-success` / `form_message-error`, the note after the
    // form carries no state word.
    let html = r#"<body><main><h1>Wall Surveys</h1>
        <section><h2>What we do</h2><p>We survey old walls for lichens and mosses, and write
        a report of every species we find, with photographs.</p></section>
        <section><h2>Book a survey</h2><div class="form-block"><form><input name="name"/>
        <input type="submit" value="Send"/></form>
        <div class="form_message-success-wrapper"><div>OKMSG Thank you! We will be in touch soon.</div></div>
        <div class="form_message-error-wrapper"><div>ERRMSG Something went wrong, please try again.</div></div>
        <div class="form-note"><p>NOTEKEPT Surveys take two days and cost the same for any wall,
        however long it is.</p></div></div></section></main></body>"#;
    let out = main_content(html);
    assert_kept(&out, &["We survey old walls", "NOTEKEPT"], &["OKMSG", "ERRMSG"]);
}
