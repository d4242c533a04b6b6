//! Test helpers for converter crates: the shared fixture documents,
//! hand-built hostile archives, and property sets / compound files for the
//! binary formats.
//!
//! Fixtures are read from the directory named by the environment variable
//! `DISTILL_DOCUMENT_FIXTURES` when it is set; otherwise from the first
//! `tests/fixtures/documents` found in the calling crate's directory or one of
//! its parents (the Distill repository's fixtures for a crate at `plugins/<name>`).

use std::path::{Path, PathBuf};

/// The environment variable naming the fixture directory.
pub const FIXTURES_ENV: &str = "DISTILL_DOCUMENT_FIXTURES";

/// The fixture directory for a crate at `manifest_dir` (pass
/// `env!("CARGO_MANIFEST_DIR")`): `$DISTILL_DOCUMENT_FIXTURES`, else the nearest
/// `tests/fixtures/documents` at or above `manifest_dir`.
pub fn fixture_dir(manifest_dir: &str) -> PathBuf {
    if let Some(dir) = std::env::var_os(FIXTURES_ENV).filter(|d| !d.is_empty()) {
        return PathBuf::from(dir);
    }
    Path::new(manifest_dir)
        .ancestors()
        .map(|a| a.join("tests/fixtures/documents"))
        .find(|d| d.is_dir())
        .unwrap_or_else(|| {
            panic!("no tests/fixtures/documents at or above {manifest_dir}; set {FIXTURES_ENV}")
        })
}

/// Reads the fixture `name` (see [`fixture_dir`]); panics naming the path when it cannot.
pub fn fixture(manifest_dir: &str, name: &str) -> Vec<u8> {
    let p = fixture_dir(manifest_dir).join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("fixture {}: {e}", p.display()))
}

/// Converts `bytes`, named `name`, with the converter `P` and no options.
pub fn convert_bytes<P: crate::ConverterPlugin>(
    name: &str,
    bytes: Vec<u8>,
) -> Result<crate::Document, crate::PluginError> {
    let file = crate::FileInput {
        name: name.into(),
        content_type: None,
        bytes,
    };
    P::convert(&file, &serde_json::json!({}))
}

/// Converts the fixture `name` (see [`fixture`]) with the converter `P` and no options.
pub fn convert_fixture<P: crate::ConverterPlugin>(
    manifest_dir: &str,
    name: &str,
) -> Result<crate::Document, crate::PluginError> {
    convert_bytes::<P>(name, fixture(manifest_dir, name))
}

/// Prints how many documents per second `P` converts, `runs` times each fixture
/// of `names` (for ignored tests run with `--release -- --ignored --nocapture`).
pub fn throughput<P: crate::ConverterPlugin>(manifest_dir: &str, names: &[&str], runs: usize) {
    for name in names {
        let bytes = fixture(manifest_dir, name);
        let size = bytes.len();
        let t = std::time::Instant::now();
        for _ in 0..runs {
            convert_bytes::<P>(name, bytes.clone()).expect("the fixture converts");
        }
        let secs = t.elapsed().as_secs_f64();
        println!(
            "{name}: {size} bytes, {:.0} documents/s ({:.2} ms each)",
            runs as f64 / secs,
            secs * 1000.0 / runs as f64
        );
    }
}

/// Byte offset of `needle` in `hay`; panics showing `hay` when it is missing.
pub fn pos(hay: &str, needle: &str) -> usize {
    hay.find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in output:\n{hay}"))
}

/// Panics (showing `hay`) unless every needle occurs in `hay`, each after the one before.
pub fn assert_in_order(hay: &str, needles: &[&str]) {
    let at: Vec<usize> = needles.iter().map(|n| pos(hay, n)).collect();
    assert!(
        at.windows(2).all(|w| w[0] < w[1]),
        "not in the order {needles:?} (at {at:?}):\n{hay}"
    );
}

/// The message of an `UnsupportedInput` error; panics on anything else.
pub fn unsupported(r: Result<crate::Document, crate::PluginError>) -> String {
    match r {
        Err(crate::PluginError::UnsupportedInput(m)) => m,
        Err(e) => panic!("expected UnsupportedInput, got {e:?}"),
        Ok(d) => panic!("expected an error, got {}", d.content),
    }
}

/// Builds a stored (uncompressed) ZIP with `n` empty entries.
pub fn many_entries_zip(n: usize) -> Vec<u8> {
    let names: Vec<String> = (0..n).map(|i| format!("e{i}")).collect();
    zip_with(&names)
}

/// Builds a stored (uncompressed) ZIP with an empty entry per name.
pub fn zip_with(names: &[impl AsRef<str>]) -> Vec<u8> {
    let n = names.len();
    let mut local = Vec::new();
    let mut central = Vec::new();
    for name in names {
        let name = name.as_ref();
        let offset = local.len() as u32;
        local.extend_from_slice(&[0x50, 0x4b, 3, 4, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        local.extend_from_slice(&[0; 12]); // crc, sizes
        local.extend_from_slice(&(name.len() as u16).to_le_bytes());
        local.extend_from_slice(&[0, 0]);
        local.extend_from_slice(name.as_bytes());
        central.extend_from_slice(&[0x50, 0x4b, 1, 2, 20, 0, 20, 0, 0, 0, 0, 0, 0, 0, 0, 0]);
        central.extend_from_slice(&[0; 12]);
        central.extend_from_slice(&(name.len() as u16).to_le_bytes());
        central.extend_from_slice(&[0; 12]);
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(name.as_bytes());
    }
    let cd_offset = local.len() as u32;
    let cd_size = central.len() as u32;
    let mut out = local;
    out.extend_from_slice(&central);
    out.extend_from_slice(&[0x50, 0x4b, 5, 6, 0, 0, 0, 0]);
    out.extend_from_slice(&(n as u16).to_le_bytes());
    out.extend_from_slice(&(n as u16).to_le_bytes());
    out.extend_from_slice(&cd_size.to_le_bytes());
    out.extend_from_slice(&cd_offset.to_le_bytes());
    out.extend_from_slice(&[0, 0]);
    out
}

/// A SummaryInformation property set ([MS-OLEPS]) holding a code page property
/// (when given) and a title of property type `ty` (30 = VT_LPSTR, 31 =
/// VT_LPWSTR) whose stored bytes are `raw`, terminator included.
pub fn summary_information(codepage: Option<u16>, ty: u32, raw: &[u8]) -> Vec<u8> {
    const FMTID_SUMMARY: [u8; 16] = [
        0xE0, 0x85, 0x9F, 0xF2, 0xF9, 0x4F, 0x68, 0x10, 0xAB, 0x91, 0x08, 0x00, 0x2B, 0x27, 0xB3, 0xD9,
    ];
    let mut values: Vec<(u32, Vec<u8>)> = Vec::new();
    if let Some(cp) = codepage {
        let mut v = 2u32.to_le_bytes().to_vec();
        v.extend_from_slice(&cp.to_le_bytes());
        v.extend_from_slice(&[0, 0]);
        values.push((1, v));
    }
    let count = if ty == 31 { raw.len() / 2 } else { raw.len() };
    let mut v = ty.to_le_bytes().to_vec();
    v.extend_from_slice(&(count as u32).to_le_bytes());
    v.extend_from_slice(raw);
    v.resize(v.len().next_multiple_of(4), 0);
    values.push((2, v));

    let mut set = Vec::new();
    let mut offset = 8 + 8 * values.len();
    for (pid, v) in &values {
        set.extend_from_slice(&pid.to_le_bytes());
        set.extend_from_slice(&(offset as u32).to_le_bytes());
        offset += v.len();
    }
    for (_, v) in &values {
        set.extend_from_slice(v);
    }
    let mut out = vec![0xFE, 0xFF, 0, 0, 0, 0, 0, 0];
    out.extend_from_slice(&[0; 16]); // CLSID
    out.extend_from_slice(&1u32.to_le_bytes());
    out.extend_from_slice(&FMTID_SUMMARY);
    out.extend_from_slice(&48u32.to_le_bytes());
    out.extend_from_slice(&((8 + set.len()) as u32).to_le_bytes());
    out.extend_from_slice(&(values.len() as u32).to_le_bytes());
    out.extend_from_slice(&set);
    out
}

/// The compound file `cfb` with the stream at `path` created or replaced by `data`.
#[cfg(feature = "cfb")]
pub fn with_stream(cfb: &[u8], path: &str, data: &[u8]) -> Vec<u8> {
    use std::io::Write;
    let mut c = ::cfb::CompoundFile::open(std::io::Cursor::new(cfb.to_vec())).expect("a compound file");
    let mut s = c.create_stream(path).expect("stream created");
    s.write_all(data).expect("stream written");
    drop(s);
    c.flush().expect("compound file written");
    c.into_inner().into_inner()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixtures_are_found_above_the_crate() {
        if std::env::var_os(FIXTURES_ENV).is_some() {
            return; // the variable decides; nothing to search
        }
        // The SDK is <repo>/sdk, the fixtures <repo>/tests/fixtures/documents.
        let dir = fixture_dir(env!("CARGO_MANIFEST_DIR"));
        assert!(dir.ends_with("tests/fixtures/documents"), "{}", dir.display());
        assert_eq!(
            &fixture(env!("CARGO_MANIFEST_DIR"), "report.doc")[..4],
            &[0xD0, 0xCF, 0x11, 0xE0]
        );
        let nowhere = std::panic::catch_unwind(|| fixture_dir("/nonexistent/crate"));
        assert!(nowhere.is_err());
    }

    #[test]
    fn order_assertion() {
        assert_in_order("a b c", &["a", "b", "c"]);
        assert!(std::panic::catch_unwind(|| assert_in_order("a b c", &["b", "a"])).is_err());
        assert!(std::panic::catch_unwind(|| assert_in_order("a b c", &["a", "d"])).is_err());
    }
}
