use super::*;

#[test]
fn phrases_are_written_normalised() {
    for family in tables::FAMILIES {
        for p in family.phrases {
            let bare = p.strip_suffix('*').unwrap_or(p);
            let n = Norm::of(bare);
            assert_eq!(n.all(), bare, "{p:?} is not written as it normalises");
            assert!(!n.full && !n.counted, "{p:?}");
        }
    }
}

#[test]
fn counts_land_anywhere_around_a_comment_title() {
    for t in [
        "12 Kommentare",
        "Kommentare (12)",
        "1 Kommentar",
        "コメント(3)",
        "3件のコメント",
        "댓글 3개",
        "5 комментариев",
        "Комментарии: 5",
        "Deja una respuesta",
        "评论 (12)",
        "Laisser un commentaire",
        "Laisser un commentaire Annuler la réponse",
        "12 Kommentare zu \u{201e}Flechten auf alten Mauern\u{201c}",
        "Une réflexion sur « Les lichens »",
        "3 réflexions sur « Les lichens »",
    ] {
        assert!(is_comment_title(t), "{t}");
    }
    for t in [
        "Kommentar",
        "Kommentar: Die Wahl ist entschieden",
        "Commentaire de texte",
        "评论员文章",
        "Comment choisir son vélo",
        "Kommentarfunktion",
        "Comentarios finales",
        "Comentários finais sobre o tema",
        "Kommentare zu Flechten",
    ] {
        assert!(!is_comment_title(t), "{t}");
    }
}

#[test]
fn furniture_is_the_whole_text_or_its_start_as_words() {
    let furniture = |t: &str| short_text_kinds(t).0;
    let pointer = |t: &str| short_text_kinds(t).1;
    assert!(furniture("Teilen"));
    assert!(furniture("  → Weiterlesen"));
    assert!(furniture("ПОДЕЛИТЬСЯ"));
    assert!(furniture("İletişim"));
    assert!(furniture("続きを読む"));
    assert!(!furniture("Teilen ist Kümmern"));
    assert!(!furniture("Teilenummer"));
    assert!(pointer("Ähnliche Artikel"));
    assert!(pointer("À lire aussi"));
    assert!(pointer("関連記事"));
    assert!(pointer("Artículos relacionados:"));
    assert!(pointer("Похожие статьи"));
    assert!(!pointer("関連記事一覧の作り方"));
    assert!(!pointer("Lesen Sie auchmal"));
}

#[test]
fn labels_need_their_colon() {
    assert!(tag_label(&Norm::of("Schlagwörter: Garten, Mauer")));
    assert!(tag_label(&Norm::of("タグ：庭")));
    assert!(!tag_label(&Norm::of("Schlagwörter helfen beim Suchen")));
    assert!(read_label(&Norm::of("À lire aussi : Les mousses")));
    assert!(read_label(&Norm::of("Читайте также: Мхи")));
    assert!(!read_label(&Norm::of("Lesen Sie auch den Bericht")));
}

#[test]
fn open_phrases_end_inside_a_word() {
    assert!(closing_line(
        &Norm::of("最後までお読みいただきありがとうございました。"),
        false
    ));
    assert!(closing_line(&Norm::of("Vielen Dank fürs Lesen!"), false));
    assert!(!closing_line(&Norm::of("Danke fürs Lesenlernen"), false));
    assert!(closing_line(&Norm::of("Über den Autor"), true));
    assert!(!closing_line(&Norm::of("Über den Autor"), false));
}

#[test]
fn every_short_text_phrase_passes_the_first_word_filter() {
    for family in tables::FAMILIES {
        if family.uses & (Use::EXACT | Use::PREFIX | Use::POINTER) != 0 {
            for p in family.phrases {
                assert!(first_words::SHORT.known(p), "{p:?}");
                let upper = p.to_uppercase();
                // ("SCHLIESSEN" lower-cases to another word than "schließen".)
                assert!(
                    upper.to_lowercase() != *p || first_words::SHORT.known(&format!("  12 {upper}: x")),
                    "{upper:?}"
                );
            }
        }
    }
    assert!(!first_words::SHORT.known("Lichens grow slowly"));
    assert!(first_words::SHORT.known("J\u{2019}aime"));
}

#[test]
fn every_comment_title_passes_the_first_word_filter() {
    for family in tables::FAMILIES {
        if family.uses & (Use::COMMENT | Use::COMMENT_NOUN | Use::COUNTED | Use::COUNTED_ON) != 0 {
            for p in family.phrases {
                assert!(first_words::COMMENTS.known(&format!("12 {p} (3)")), "{p:?}");
            }
        }
    }
    assert!(!first_words::COMMENTS.known("Comments"));
}

#[test]
fn reading_time_lines_open_after_their_count() {
    for t in [
        "5 Min. Lesezeit",
        "Lesezeit: 5 Minuten",
        "この記事は約5分で読めます",
        "3 мин чтения",
        "阅读时间：3分钟",
    ] {
        assert!(reading_time(&Norm::of(t)), "{t}");
    }
    assert!(!reading_time(&Norm::of("Lesezeiten sind lang")));
}
