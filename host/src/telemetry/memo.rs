//! Metric handles kept per thread by metric name and label values. Without
//! them every labelled record on the request path builds a key (each label
//! copied into a string), hashes it and looks it up in the recorder's
//! registry under its lock: a few hundred instructions and several cold
//! cache lines, five or six times a scrape. With them it is a short hash, a
//! compare and the handle's atomic add. Kept only once the recorder is
//! installed (before, the facade hands out no-op handles, which must not
//! stay); at most [`MAX`] handles a thread per kind, all let go when that
//! fills (label values come from small fixed sets: routes, methods,
//! statuses, plugin names), and a hash that two label sets share is served
//! from the registry every time, so a handle is never another series'.

use metrics::{Counter, Histogram};
use std::cell::RefCell;
use std::collections::HashMap;
use std::thread::LocalKey;

/// Most handles of one kind a thread keeps.
pub const MAX: usize = 256;

/// One kept handle: its series (name and label values) and the handle.
struct Kept<H> {
    name: &'static str,
    labels: Box<[Box<str>]>,
    handle: H,
}

type Memo<H> = RefCell<HashMap<u64, Kept<H>>>;

thread_local! {
    static COUNTERS: Memo<Counter> = RefCell::new(HashMap::new());
    static HISTOGRAMS: Memo<Histogram> = RefCell::new(HashMap::new());
}

/// FNV-1a over the name's address and the label values (each closed by a
/// 0xff byte, which UTF-8 never holds, so ("ab", "c") and ("a", "bc") differ).
fn series_hash(name: &'static str, labels: &[&str]) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| h = (h ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3);
    for b in (name.as_ptr() as usize).to_le_bytes() {
        eat(b);
    }
    for label in labels {
        label.bytes().for_each(&mut eat);
        eat(0xff);
    }
    h
}

/// Runs `with` on the handle of the series `name` / `labels`: the one this
/// thread kept, else `make`'s (kept when `keep`).
fn with_handle<H: Clone + 'static>(
    memo: &'static LocalKey<Memo<H>>,
    keep: bool,
    name: &'static str,
    labels: &[&str],
    make: impl FnOnce() -> H,
    with: impl FnOnce(&H),
) {
    if !keep {
        return with(&make());
    }
    with_hash(memo, series_hash(name, labels), name, labels, make, with)
}

/// [`with_handle`] with the series' hash given (tests force two series onto one).
fn with_hash<H: Clone + 'static>(
    memo: &'static LocalKey<Memo<H>>,
    hash: u64,
    name: &'static str,
    labels: &[&str],
    make: impl FnOnce() -> H,
    with: impl FnOnce(&H),
) {
    let same = |k: &Kept<H>| {
        std::ptr::eq(k.name, name)
            && k.labels.len() == labels.len()
            && k.labels.iter().zip(labels).all(|(a, b)| &**a == *b)
    };
    let mut with = Some(with);
    let found = memo.with(|m| {
        let m = m.borrow();
        let k = m.get(&hash)?;
        if same(k) {
            (with.take().expect("called once"))(&k.handle);
        }
        Some(())
    });
    let Some(with) = with else { return };
    let handle = make();
    with(&handle);
    // Not kept when another series with this hash holds the place.
    if found.is_none() {
        memo.with(|m| {
            let mut m = m.borrow_mut();
            if m.len() >= MAX {
                m.clear();
            }
            let labels = labels.iter().map(|l| Box::from(*l)).collect();
            m.insert(hash, Kept { name, labels, handle });
        });
    }
}

/// [`with_handle`] for counters.
pub fn counter(
    keep: bool,
    name: &'static str,
    labels: &[&str],
    make: impl FnOnce() -> Counter,
    with: impl FnOnce(&Counter),
) {
    with_handle(&COUNTERS, keep, name, labels, make, with)
}

/// [`with_handle`] for histograms.
pub fn histogram(
    keep: bool,
    name: &'static str,
    labels: &[&str],
    make: impl FnOnce() -> Histogram,
    with: impl FnOnce(&Histogram),
) {
    with_handle(&HISTOGRAMS, keep, name, labels, make, with)
}

#[cfg(test)]
mod tests {
    use super::*;
    use metrics_exporter_prometheus::PrometheusBuilder;

    const NAME: &str = "memo_test_total";

    fn kept() -> usize {
        COUNTERS.with(|m| m.borrow().len())
    }

    /// Counts `labels` (two label values) `times` times under a local recorder.
    fn count(keep: bool, a: &str, b: &str) {
        counter(
            keep,
            NAME,
            &[a, b],
            || metrics::counter!(NAME, "a" => a.to_string(), "b" => b.to_string()),
            |c| c.increment(1),
        );
    }

    fn line(text: &str, a: &str, b: &str) -> Option<String> {
        let head = format!("{NAME}{{a=\"{a}\",b=\"{b}\"}} ");
        text.lines()
            .find_map(|l| l.strip_prefix(&head).map(str::to_string))
    }

    #[test]
    fn a_kept_handle_counts_into_its_own_series() {
        let recorder = PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            for _ in 0..3 {
                count(true, "ab", "c");
            }
            count(true, "a", "bc");
        });
        assert_eq!(kept(), 2, "one handle a series");
        let text = handle.render();
        assert_eq!(line(&text, "ab", "c").as_deref(), Some("3"), "{text}");
        assert_eq!(line(&text, "a", "bc").as_deref(), Some("1"), "{text}");
    }

    #[test]
    fn nothing_is_kept_before_the_recorder() {
        let recorder = PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            count(false, "x", "y");
            count(false, "x", "y");
        });
        assert_eq!(kept(), 0);
        assert_eq!(line(&handle.render(), "x", "y").as_deref(), Some("2"));
    }

    #[test]
    fn two_series_on_one_hash_keep_their_own_counts() {
        let recorder = PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        let hit = |a: &'static str| {
            with_hash(
                &COUNTERS,
                7,
                NAME,
                &[a, "z"],
                || metrics::counter!(NAME, "a" => a, "b" => "z"),
                |c| c.increment(1),
            )
        };
        metrics::with_local_recorder(&recorder, || {
            hit("first");
            hit("second");
            hit("second");
            hit("first");
        });
        assert_eq!(kept(), 1, "the first series holds the place");
        let text = handle.render();
        assert_eq!(line(&text, "first", "z").as_deref(), Some("2"), "{text}");
        assert_eq!(line(&text, "second", "z").as_deref(), Some("2"), "{text}");
    }

    #[test]
    fn a_thread_keeps_at_most_max_handles() {
        let recorder = PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            for round in 0..2 {
                for i in 0..MAX + 10 {
                    count(true, &i.to_string(), "n");
                    assert!(kept() <= MAX, "round {round}, series {i}");
                }
            }
        });
        let text = handle.render();
        assert_eq!(line(&text, "0", "n").as_deref(), Some("2"), "{text}");
        assert_eq!(line(&text, &(MAX + 9).to_string(), "n").as_deref(), Some("2"));
    }

    #[test]
    fn status_codes_are_written_in_decimal() {
        for code in [0u16, 7, 42, 200, 404, 503, 65535] {
            let mut buf = [0u8; 5];
            assert_eq!(super::super::status_text(code, &mut buf), code.to_string());
        }
    }
}
