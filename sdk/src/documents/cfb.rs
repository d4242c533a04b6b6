//! OLE compound files (CFB), the container of the binary Office 97-2003
//! formats (feature `cfb`): opening with a clear error for what the file is
//! instead, streams read with a size cap, and the title of the
//! `\x05SummaryInformation` property set in its own code page.

use super::bytes::{slice_at, u16_at, u32_at};
use super::codepage;
use crate::PluginError;
use std::io::{Cursor, Read};

/// A compound file opened over the input bytes.
pub type Compound<'a> = ::cfb::CompoundFile<Cursor<&'a [u8]>>;

/// The first eight bytes of every compound file.
pub const SIGNATURE: [u8; 8] = [0xD0, 0xCF, 0x11, 0xE0, 0xA1, 0xB1, 0x1A, 0xE1];
/// Most bytes read from one stream; a longer stream is cut there.
pub const MAX_STREAM: u64 = 256 << 20;
/// The stream holding the document's summary properties (title, author, ...).
pub const SUMMARY_INFORMATION: &str = "/\u{5}SummaryInformation";
/// Longest title read from the property set, in bytes.
const MAX_TITLE_BYTES: usize = 4096;

fn unsupported(msg: impl Into<String>) -> PluginError {
    PluginError::UnsupportedInput(msg.into())
}

/// Opens `bytes` as the compound file of a `what` (e.g. "Word 97-2003 .doc")
/// whose Office Open XML successor has the extension `successor` (".docx"):
/// a ZIP, RTF or anything not starting with the CFB signature is refused with
/// a message naming it, and so is a damaged compound file.
pub fn open<'a>(bytes: &'a [u8], what: &str, successor: &str) -> Result<Compound<'a>, PluginError> {
    if bytes.starts_with(b"PK\x03\x04") {
        return Err(unsupported(format!(
            "the file is a zip archive (probably {successor}), not a {what}"
        )));
    }
    if bytes.starts_with(b"{\\rtf") {
        return Err(unsupported(format!("the file is RTF, not a {what}")));
    }
    if !bytes.starts_with(&SIGNATURE) {
        return Err(unsupported(format!(
            "the file is not an OLE compound file ({what})"
        )));
    }
    ::cfb::CompoundFile::open(Cursor::new(bytes))
        .map_err(|e| unsupported(format!("the compound file is damaged or truncated: {e}")))
}

/// The stream at `path` (e.g. "/WordDocument"), at most [`MAX_STREAM`] bytes of it;
/// `Ok(None)` when there is no such stream.
pub fn read_stream(c: &mut Compound, path: &str) -> Result<Option<Vec<u8>>, PluginError> {
    if !c.is_stream(path) {
        return Ok(None);
    }
    let s = c
        .open_stream(path)
        .map_err(|e| unsupported(format!("cannot open stream {path}: {e}")))?;
    let mut buf = Vec::new();
    s.take(MAX_STREAM)
        .read_to_end(&mut buf)
        .map_err(|e| unsupported(format!("the stream {path} is damaged or truncated: {e}")))?;
    Ok(Some(buf))
}

/// The document title from the `\x05SummaryInformation` stream, if there is one.
pub fn summary_title(c: &mut Compound) -> Option<String> {
    let stream = read_stream(c, SUMMARY_INFORMATION).ok().flatten()?;
    property_set_title(&stream)
}

/// PIDSI_TITLE of a SummaryInformation property set ([MS-OLEPS]): an 8-bit
/// string (VT_LPSTR) in the set's code page (PID 1; Windows-1252 when absent)
/// or a UTF-16 string (VT_LPWSTR); trimmed, `None` when empty or unreadable.
pub fn property_set_title(s: &[u8]) -> Option<String> {
    const PID_CODEPAGE: u32 = 1;
    const PID_TITLE: u32 = 2;
    const VT_I2: u32 = 2;
    const VT_LPSTR: u32 = 30;
    const VT_LPWSTR: u32 = 31;
    // Header (28 bytes), then the first set's FMTID (16) and offset.
    let sec = u32_at(s, 44)? as usize;
    let count = u32_at(s, sec.checked_add(4)?)? as usize;
    let mut codepage = 1252u32;
    let mut title: Option<(u32, &[u8])> = None;
    for k in 0..count.min(256) {
        let entry = sec.checked_add(8 + k * 8)?;
        let pid = u32_at(s, entry)?;
        let off = sec.checked_add(u32_at(s, entry + 4)? as usize)?;
        let ty = u32_at(s, off)?;
        match (pid, ty) {
            (PID_CODEPAGE, VT_I2) => codepage = u32::from(u16_at(s, off + 4)?),
            (PID_TITLE, VT_LPSTR | VT_LPWSTR) => {
                let len = u32_at(s, off + 4)? as usize;
                // VT_LPWSTR counts characters (two bytes each), VT_LPSTR bytes.
                let bytes = if ty == VT_LPWSTR {
                    len.saturating_mul(2)
                } else {
                    len
                };
                title = Some((ty, slice_at(s, off + 8, bytes.min(MAX_TITLE_BYTES))?));
            }
            _ => {}
        }
    }
    let (ty, raw) = title?;
    let wide = ty == VT_LPWSTR || codepage == codepage::UTF16LE;
    let text = if wide {
        let end = raw
            .chunks_exact(2)
            .position(|u| u == [0, 0])
            .map_or(raw.len(), |i| i * 2);
        codepage::utf16le(&raw[..end])
    } else {
        let end = raw.iter().position(|&b| b == 0).unwrap_or(raw.len());
        codepage::decode(&raw[..end], codepage)
    };
    let text = text.trim();
    (!text.is_empty()).then(|| text.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::documents::testing::{summary_information, with_stream};

    #[test]
    fn titles_in_each_code_page() {
        let lpstr = |cp: Option<u16>, raw: &[u8]| property_set_title(&summary_information(cp, 30, raw));
        assert_eq!(
            lpstr(Some(1252), b"\x80 5 \x91a\x92 \x93b\x94\0").as_deref(),
            Some("€ 5 ‘a’ “b”")
        );
        // No code page property: Windows-1252.
        assert_eq!(
            lpstr(None, b"  caf\xe9 \x96 menu \0junk").as_deref(),
            Some("café – menu")
        );
        assert_eq!(
            lpstr(Some(65001), "Größe €\0".as_bytes()).as_deref(),
            Some("Größe €")
        );
        let utf16: Vec<u8> = "Ünïcode €\0".encode_utf16().flat_map(u16::to_le_bytes).collect();
        assert_eq!(lpstr(Some(1200), &utf16).as_deref(), Some("Ünïcode €"));
        let lpwstr = property_set_title(&summary_information(Some(1252), 31, &utf16));
        assert_eq!(lpwstr.as_deref(), Some("Ünïcode €"));
        assert_eq!(lpstr(Some(1252), b"   \0"), None);
    }

    #[test]
    fn damaged_property_sets_give_no_title() {
        let good = summary_information(Some(1252), 30, b"Title\0");
        for cut in [0, 10, 47, 60, good.len() - 3] {
            assert_eq!(property_set_title(&good[..cut]), None, "cut at {cut}");
        }
        let mut huge = good.clone();
        huge[44..48].copy_from_slice(&u32::MAX.to_le_bytes());
        assert_eq!(property_set_title(&huge), None);
    }

    #[test]
    fn open_names_what_the_file_is() {
        let msg = |b: &[u8]| match open(b, "Word 97-2003 .doc", ".docx") {
            Err(PluginError::UnsupportedInput(m)) => m,
            other => panic!("expected an error, got {:?}", other.map(|_| ())),
        };
        assert!(msg(b"PK\x03\x04rest").contains("probably .docx"));
        assert!(msg(b"{\\rtf1 hello}").contains("RTF"));
        assert!(msg(b"hello").contains("not an OLE compound file (Word 97-2003 .doc)"));
        assert!(msg(&SIGNATURE).contains("damaged or truncated"));
    }

    #[test]
    fn streams_and_summary_title_from_a_compound_file() {
        let empty = {
            let mut c = ::cfb::CompoundFile::create(Cursor::new(Vec::new())).unwrap();
            c.create_stream("/Data").unwrap();
            c.flush().unwrap();
            c.into_inner().into_inner()
        };
        let bytes = with_stream(&empty, "/Data", b"payload");
        let bytes = with_stream(
            &bytes,
            SUMMARY_INFORMATION,
            &summary_information(None, 30, b"\x93Hi\x94\0"),
        );
        let mut c = open(&bytes, "test file", ".test").unwrap();
        assert_eq!(
            read_stream(&mut c, "/Data").unwrap().as_deref(),
            Some(&b"payload"[..])
        );
        assert_eq!(read_stream(&mut c, "/Missing").unwrap(), None);
        assert_eq!(summary_title(&mut c).as_deref(), Some("“Hi”"));
    }
}
