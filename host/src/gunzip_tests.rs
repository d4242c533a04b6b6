use super::*;
use flate2::Compression;
use flate2::write::GzEncoder;

fn gz(bytes: &[u8]) -> Vec<u8> {
    let mut e = GzEncoder::new(Vec::new(), Compression::default());
    e.write_all(bytes).unwrap();
    e.finish().unwrap()
}

#[test]
fn inflates_whole_and_in_any_chunking() {
    let page = "<p>a paragraph of a page, repeated</p>\n".repeat(3000);
    let packed = gz(page.as_bytes());
    assert_eq!(gunzip(&packed, 1 << 20, 0).unwrap(), page.as_bytes());
    for step in [1, 7, 100, 4096] {
        let mut g = Gunzip::new(1 << 20, page.len());
        for chunk in packed.chunks(step) {
            g.feed(chunk).unwrap();
        }
        assert_eq!(g.finish().unwrap(), page.as_bytes(), "chunks of {step}");
    }
}

#[test]
fn several_members_inflate_end_to_end() {
    let packed = [gz(b"<p>one</p>"), gz(b"<p>two</p>")].concat();
    assert_eq!(gunzip(&packed, 1024, 0).unwrap(), b"<p>one</p><p>two</p>");
}

#[test]
fn an_empty_body_is_empty() {
    assert_eq!(gunzip(b"", 10, 0).unwrap(), b"");
}

#[test]
fn a_bomb_stops_at_the_limit_long_before_it_expands() {
    // 64 MiB of zeros packs into ~64 KiB; the limit is 1 MiB.
    let mut e = GzEncoder::new(Vec::new(), Compression::best());
    let zeros = vec![0u8; 1 << 20];
    for _ in 0..64 {
        e.write_all(&zeros).unwrap();
    }
    let bomb = e.finish().unwrap();
    assert!(bomb.len() < 256 << 10, "{}", bomb.len());
    let mut g = Gunzip::new(1 << 20, 0);
    let mut fed = 0;
    let mut result = Ok(());
    for chunk in bomb.chunks(512) {
        result = g.feed(chunk);
        fed += chunk.len();
        if result.is_err() {
            break;
        }
    }
    assert_eq!(result, Err(GunzipError::TooLarge));
    assert!(
        fed < bomb.len() / 8,
        "fed {fed} of {} bytes before stopping",
        bomb.len()
    );
    // Fed whole, it stops as soon: never much past the limit in memory.
    let mut g = Gunzip::new(1 << 20, 0);
    assert_eq!(g.feed(&bomb), Err(GunzipError::TooLarge));
    let held = g.decoder.get_ref().len();
    assert!(held <= (1 << 20) + (64 << 10), "{held} bytes inflated");
    assert_eq!(gunzip(&bomb, 1 << 20, 0), Err(GunzipError::TooLarge));
    assert_eq!(gunzip(&bomb, 64 << 20, 0).unwrap().len(), 64 << 20);
}

#[test]
fn garbage_and_cut_streams_are_errors_not_panics() {
    let packed = gz(&"<p>x</p>".repeat(500).into_bytes());
    for cut in [1, 5, 10, packed.len() / 2, packed.len() - 4, packed.len() - 1] {
        assert!(
            matches!(gunzip(&packed[..cut], 1 << 20, 0), Err(GunzipError::Corrupt(_))),
            "cut at {cut}"
        );
    }
    assert!(matches!(
        gunzip(b"<html>not gzip at all</html>", 1 << 20, 0),
        Err(GunzipError::Corrupt(_))
    ));
    let mut flipped = packed.clone();
    let mid = flipped.len() / 2;
    flipped[mid] ^= 0xFF;
    assert!(gunzip(&flipped, 1 << 20, 0).is_err());
}
