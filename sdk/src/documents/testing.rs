//! Test helpers for converter crates: the shared fixture documents and
//! hand-built hostile archives.

/// Reads `tests/fixtures/documents/<name>` of the Distill repository, for a crate
/// at `plugins/<name>` (pass `env!("CARGO_MANIFEST_DIR")`).
pub fn fixture(manifest_dir: &str, name: &str) -> Vec<u8> {
    let p = std::path::Path::new(manifest_dir)
        .join("../../tests/fixtures/documents")
        .join(name);
    std::fs::read(&p).unwrap_or_else(|e| panic!("fixture {}: {e}", p.display()))
}

/// Byte offset of `needle` in `hay`; panics showing `hay` when it is missing.
pub fn pos(hay: &str, needle: &str) -> usize {
    hay.find(needle)
        .unwrap_or_else(|| panic!("{needle:?} not in output:\n{hay}"))
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
    let mut local = Vec::new();
    let mut central = Vec::new();
    for i in 0..n {
        let name = format!("e{i}");
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
