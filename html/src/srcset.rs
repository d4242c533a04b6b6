//! `srcset` handling with upstream's exact (lenient) parsing: pick the largest candidate for
//! `<img src>`, and list every candidate URL for the `images` format.

use std::cmp::Ordering;

struct Candidate {
    url: String,
    size: f64,
    is_x: bool,
}

/// Parses one comma-separated entry like upstream: tokens split on single spaces; the last token
/// is a descriptor only when there are 2+ tokens and it ends in `x` or `w`, otherwise the whole
/// entry is the URL at `1x`. Entries whose descriptor number does not parse are dropped.
fn parse_candidate(entry: &str) -> Option<Candidate> {
    let tokens: Vec<&str> = entry.trim().split(' ').collect();
    let last = tokens[tokens.len() - 1];
    let has_descriptor = tokens.len() > 1 && !last.is_empty() && (last.ends_with('x') || last.ends_with('w'));
    let descriptor = if has_descriptor { last } else { "1x" };
    let size: f64 = descriptor[..descriptor.len() - 1].parse().ok()?;
    let url = if has_descriptor {
        tokens[..tokens.len() - 1].join(" ")
    } else {
        tokens.join(" ")
    };
    Some(Candidate {
        url,
        size,
        is_x: descriptor.ends_with('x'),
    })
}

/// The URL `<img src>` should get for this `srcset`: the candidate with the largest number
/// (first one wins ties). When every candidate uses an `x` descriptor, the current `src` joins
/// the race as `1x`. `None` when no candidate parses.
pub(crate) fn pick_largest(srcset: &str, src: Option<&str>) -> Option<String> {
    let mut candidates: Vec<Candidate> = srcset.split(',').filter_map(parse_candidate).collect();
    if candidates.iter().all(|c| c.is_x)
        && let Some(src) = src
    {
        candidates.push(Candidate {
            url: src.to_string(),
            size: 1.0,
            is_x: true,
        });
    }
    // Stable sort, descending, incomparable (NaN) treated as equal: same winner as upstream.
    candidates.sort_by(|a, b| b.size.partial_cmp(&a.size).unwrap_or(Ordering::Equal));
    candidates.into_iter().next().map(|c| c.url)
}

/// Every candidate URL of a `srcset` (first whitespace-separated token of each entry).
pub(crate) fn candidate_urls(srcset: &str) -> impl Iterator<Item = &str> {
    srcset
        .split(',')
        .filter_map(|part| part.split_whitespace().next())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn largest_width_wins() {
        assert_eq!(
            pick_largest("a.jpg 300w, b.jpg 1200w, c.jpg 800w", Some("s.jpg")).as_deref(),
            Some("b.jpg")
        );
    }

    #[test]
    fn largest_density_wins_and_src_counts_as_1x() {
        assert_eq!(
            pick_largest("a.jpg 1.5x, b.jpg 2x", Some("s.jpg")).as_deref(),
            Some("b.jpg")
        );
        // src joins as 1x but loses the tie against an earlier 1x candidate.
        assert_eq!(pick_largest("a.jpg 1x", Some("s.jpg")).as_deref(), Some("a.jpg"));
        assert_eq!(
            pick_largest("a.jpg 0.5x", Some("s.jpg")).as_deref(),
            Some("s.jpg")
        );
    }

    #[test]
    fn src_is_ignored_when_any_width_descriptor() {
        assert_eq!(
            pick_largest("a.jpg 0.5x, b.jpg 1w", Some("s.jpg")).as_deref(),
            Some("b.jpg")
        );
    }

    #[test]
    fn missing_descriptor_is_1x() {
        assert_eq!(pick_largest("a.jpg, b.jpg 2x", None).as_deref(), Some("b.jpg"));
        assert_eq!(pick_largest("only.jpg", None).as_deref(), Some("only.jpg"));
    }

    #[test]
    fn unparsable_descriptors_are_dropped_or_kept_in_url() {
        // `fooX` is not a number: entry dropped.
        assert_eq!(
            pick_largest("a.jpg fox, b.jpg 2x", None).as_deref(),
            Some("b.jpg")
        );
        // `100h` is not a descriptor: part of the URL, at 1x.
        assert_eq!(pick_largest("a.jpg 100h", None).as_deref(), Some("a.jpg 100h"));
        assert_eq!(pick_largest("a.jpg fox", None), None);
    }

    #[test]
    fn candidate_urls_lists_first_tokens() {
        let urls: Vec<&str> = candidate_urls(" a.jpg 1x,b.jpg\t2x , ,c.jpg").collect();
        assert_eq!(urls, ["a.jpg", "b.jpg", "c.jpg"]);
    }
}
