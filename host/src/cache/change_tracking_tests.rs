//! changeStatus over three versions of a page, with records kept in a real
//! embedded store.

use super::*;
use crate::cache::embedded::{EmbeddedOptions, EmbeddedStore};
use serde_json::json;

const V1: &str = "# Prices\n\nCoffee costs 3 euros.\n\nTea costs 2 euros.\n";
/// V1 with whitespace changed and its two paragraphs swapped: the same characters.
const V1_REFLOWED: &str = "#   Prices\n\n\nTea costs 2 euros.\n\nCoffee  costs 3 euros.";
const V2: &str = "# Prices\n\nCoffee costs 4 euros.\n\nTea costs 2 euros.\n";
const V3: &str =
    "# Prices\n\nCoffee costs 4 euros.\n\nTea costs 2 euros.\n\n[iframe](https://ads.example/frame)\n";

fn scrape(markdown: &str, at: i64, status: u16) -> PreviousScrape {
    PreviousScrape {
        markdown: markdown.into(),
        scraped_at_ms: at,
        status_code: status,
    }
}

fn git_diff_opts(tag: Option<&str>) -> TrackOptions {
    TrackOptions::from_format(&FormatRequest {
        name: "changeTracking".into(),
        options: json!({"modes": ["git-diff"], "tag": tag})
            .as_object()
            .unwrap()
            .clone(),
    })
}

#[test]
fn comparison_rule() {
    assert!(same_content(V1, V1_REFLOWED));
    assert!(!same_content(V1, V2));
    assert!(same_content(V2, V3), "[iframe](...) links are ignored");
    assert!(
        same_content("a\u{a0}b\u{feff}", "ab"),
        "JavaScript's \\s includes NBSP and BOM"
    );
    assert!(!same_content("a\u{85}b", "ab"), "but not NEL");
    assert!(!same_content("[iframe]()", ""), ".+? needs one character");
    assert_eq!(strip_iframes("x[iframe](a)y[iframe](b(c))z"), "xy)z");
}

#[test]
fn options_from_the_format() {
    let o = TrackOptions::from_format(&FormatRequest {
        name: "changeTracking".into(),
        options: json!({"modes": ["json", "git-diff"], "tag": "daily", "schema": {"type": "object"}, "prompt": "p"})
            .as_object()
            .unwrap()
            .clone(),
    });
    assert!(o.git_diff && o.json);
    assert_eq!(o.tag.as_deref(), Some("daily"));
    assert_eq!(o.schema, Some(json!({"type": "object"})));
    assert_eq!(
        TrackOptions::from_format(&FormatRequest::named("changeTracking")),
        TrackOptions::default()
    );
}

#[test]
fn record_keys_separate_urls_and_tags() {
    let u = "https://example.com/";
    assert_eq!(record_key(u, None), record_key(u, None));
    assert_ne!(record_key(u, None), record_key(u, Some("")));
    assert_ne!(record_key(u, Some("a")), record_key(u, Some("b")));
    assert_ne!(record_key(u, None), record_key("https://example.com/x", None));
}

#[tokio::test]
async fn three_versions_through_the_store() {
    let dir = std::env::temp_dir().join(format!("distill-ct-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    let store = EmbeddedStore::open(
        &dir.join("cache.redb"),
        EmbeddedOptions {
            max_bytes: 1 << 20,
            hot_max_bytes: 1 << 16,
        },
    )
    .unwrap();
    let ct = ChangeTracker::new(Arc::new(store), Duration::from_secs(3600));
    let url = "https://example.com/prices";
    let opts = git_diff_opts(None);
    let now = crate::cache::store::now_ms();

    let first = ct
        .track(url, &opts, &scrape(V1, now - 3000, 200), Visibility::Visible)
        .await
        .unwrap();
    assert_eq!(first.change_status, ChangeStatus::New);
    assert_eq!(
        first.to_json(),
        json!({"previousScrapeAt": null, "changeStatus": "new", "visibility": "visible"})
    );

    let second = ct
        .track(
            url,
            &opts,
            &scrape(V1_REFLOWED, now - 2000, 200),
            Visibility::Visible,
        )
        .await
        .unwrap();
    assert_eq!(second.change_status, ChangeStatus::Same);
    assert_eq!(second.previous_scrape_at_ms, Some(now - 3000));
    assert!(second.diff.is_none(), "no diff unless changed");

    let third = ct
        .track(url, &opts, &scrape(V2, now - 1000, 200), Visibility::Hidden)
        .await
        .unwrap();
    assert_eq!(third.change_status, ChangeStatus::Changed);
    assert_eq!(third.previous_scrape_at_ms, Some(now - 2000));
    let j = third.to_json();
    assert_eq!(j["changeStatus"], "changed");
    assert_eq!(j["visibility"], "hidden");
    assert_eq!(j["previousScrapeAt"], crate::cache::policy::iso8601(now - 2000));
    // The diff is against the previous scrape (the reflowed text), not the first.
    // As `git diff` prints it.
    let git = "@@ -1,6 +1,5 @@\n-#   Prices\n+# Prices\n \n+Coffee costs 4 euros.\n \n Tea costs 2 euros.\n-\n\
               -Coffee  costs 3 euros.\n\\ No newline at end of file\n";
    assert_eq!(j["diff"]["text"], git);
    assert_eq!(
        j["diff"]["json"]["files"][0]["chunks"][0]["content"],
        "@@ -1,6 +1,5 @@"
    );

    // The page is gone: removed, whatever the content.
    let gone = ct
        .track(url, &opts, &scrape("Not found", now, 404), Visibility::Visible)
        .await
        .unwrap();
    assert_eq!(gone.change_status, ChangeStatus::Removed);
    assert!(gone.diff.is_none());

    // Another tag has its own history; the record is the latest scrape.
    let weekly = git_diff_opts(Some("weekly"));
    let tagged = ct
        .track(url, &weekly, &scrape(V3, now, 200), Visibility::Visible)
        .await
        .unwrap();
    assert_eq!(tagged.change_status, ChangeStatus::New);
    assert_eq!(ct.previous(url, None).await.unwrap().unwrap().status_code, 404);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn json_mode_hands_the_previous_markdown_to_the_pipeline() {
    let opts = TrackOptions {
        json: true,
        ..TrackOptions::default()
    };
    let prev = scrape(V1, 1, 200);
    let r = compare(Some(&prev), V2, 200, Visibility::Visible, &opts);
    assert_eq!(r.previous_markdown.as_deref(), Some(V1));
    assert!(r.diff.is_none() && r.json.is_none());
    let same = compare(Some(&prev), V1, 200, Visibility::Visible, &opts);
    assert!(same.previous_markdown.is_none());
    assert_eq!(
        compare(None, V1, 404, Visibility::Visible, &opts).change_status,
        ChangeStatus::Removed
    );
}

#[test]
fn json_changes_lists_differing_keys() {
    let prev = json!({"price": 3, "name": "Coffee", "tags": ["a", "b"], "gone": true});
    let cur = json!({"price": 4, "name": "Coffee", "tags": ["a", "b"], "new": {"x": 1}});
    assert_eq!(
        json_changes(&prev, &cur),
        json!({"price": {"previous": 3, "current": 4}, "gone": {"previous": true}, "new": {"current": {"x": 1}}})
    );
    let keys: Vec<String> = json_changes(&prev, &cur)
        .as_object()
        .unwrap()
        .keys()
        .cloned()
        .collect();
    assert_eq!(keys, ["price", "gone", "new"], "previous keys first");
    assert_eq!(json_changes(&prev, &prev), json!({}));
    // Key order inside values counts, as JSON.stringify compares.
    assert_eq!(
        json_changes(&json!({"o": {"a": 1, "b": 2}}), &json!({"o": {"b": 2, "a": 1}}))["o"]["current"],
        json!({"b": 2, "a": 1})
    );
    assert_eq!(
        json_changes(&Value::Null, &json!({"a": 1})),
        json!({"a": {"current": 1}})
    );
}
