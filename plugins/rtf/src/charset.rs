//! Code pages of RTF text: `\ansicpgN`, a font's `\fcharsetN` / `\cpgN`, and
//! the decoding of `\'hh` and literal bytes with `encoding_rs` — single-byte
//! Windows pages and the double-byte Asian ones (932, 936, 949, 950), whose
//! lead and trail bytes are gathered before decoding. `\uN` values come as
//! UTF-16 units; surrogate pairs are joined here too.

use encoding_rs::Encoding;

/// The encoding of a Windows code page number; `None` when `encoding_rs` has
/// no such page (the caller falls back to Windows-1252).
pub fn encoding_of(codepage: u32) -> Option<&'static Encoding> {
    use encoding_rs::*;
    Some(match codepage {
        866 => IBM866,
        874 => WINDOWS_874,
        932 | 10001 => SHIFT_JIS,
        936 | 10008 => GBK,
        949 | 10003 => EUC_KR,
        950 | 10002 => BIG5,
        1250 => WINDOWS_1250,
        1251 => WINDOWS_1251,
        1252 | 28591 => WINDOWS_1252,
        1253 => WINDOWS_1253,
        1254 => WINDOWS_1254,
        1255 => WINDOWS_1255,
        1256 => WINDOWS_1256,
        1257 => WINDOWS_1257,
        1258 => WINDOWS_1258,
        10000 => MACINTOSH,
        10007 => X_MAC_CYRILLIC,
        20866 => KOI8_R,
        20932 | 51932 => EUC_JP,
        21866 => KOI8_U,
        28592 => ISO_8859_2,
        28595 => ISO_8859_5,
        28597 => ISO_8859_7,
        28605 => ISO_8859_15,
        54936 => GB18030,
        65001 => UTF_8,
        _ => return None,
    })
}

/// The code page a font's `\fcharsetN` stands for. `None` for charsets that
/// defer to the document's `\ansicpg` (0 ANSI, 1 default, 2 symbol) or that
/// are unknown.
pub fn codepage_of_charset(charset: i32) -> Option<u32> {
    Some(match charset {
        77 => 10000,
        78 => 10001,
        79 => 10003,
        80 => 10008,
        81 => 10002,
        128 => 932,
        129 => 949,
        134 => 936,
        136 => 950,
        161 => 1253,
        162 => 1254,
        163 => 1258,
        177 => 1255,
        178 => 1256,
        186 => 1257,
        204 => 1251,
        222 => 874,
        238 => 1250,
        _ => return None,
    })
}

/// Decodes bytes in a code page (Windows-1252 when the page is unknown).
pub fn decode(bytes: &[u8], codepage: u32) -> String {
    let enc = encoding_of(codepage).unwrap_or(encoding_rs::WINDOWS_1252);
    enc.decode_without_bom_handling(bytes).0.into_owned()
}

/// Joins `\uN` UTF-16 units into characters.
#[derive(Default)]
pub struct Utf16 {
    high: Option<u16>,
}

impl Utf16 {
    /// Feeds one `\uN` parameter; returns the text it completes (a lone
    /// surrogate becomes U+FFFD).
    pub fn push(&mut self, param: i32) -> String {
        let unit = if param < 0 {
            (param + 65536).clamp(0, 0xFFFF) as u16
        } else {
            param.min(0xFFFF) as u16
        };
        let mut out = String::new();
        if let Some(high) = self.high.take() {
            if (0xDC00..0xE000).contains(&unit) {
                let cp = 0x10000 + ((u32::from(high) - 0xD800) << 10) + (u32::from(unit) - 0xDC00);
                out.push(char::from_u32(cp).unwrap_or('\u{FFFD}'));
                return out;
            }
            out.push('\u{FFFD}');
        }
        match unit {
            0xD800..0xDC00 => self.high = Some(unit),
            _ => out.push(char::from_u32(u32::from(unit)).unwrap_or('\u{FFFD}')),
        }
        out
    }

    /// Ends a run of `\uN`: a pending high surrogate becomes U+FFFD.
    pub fn finish(&mut self) -> Option<char> {
        self.high.take().map(|_| '\u{FFFD}')
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn double_and_single_byte_pages() {
        // "日本" in Shift-JIS, "中文" in GBK, "한국" in EUC-KR, "中文" in Big5.
        assert_eq!(decode(b"\x93\xfa\x96\x7b", 932), "日本");
        assert_eq!(decode(b"\xd6\xd0\xce\xc4", 936), "中文");
        assert_eq!(decode(b"\xc7\xd1\xb1\xb9", 949), "한국");
        assert_eq!(decode(b"\xa4\xa4\xa4\xe5", 950), "中文");
        assert_eq!(decode(b"\xe8\xed\x9e", 1250), "číž");
        assert_eq!(decode(b"\xcf\xf0\xe8", 1251), "При");
        assert_eq!(decode(b"caf\xe9 \x80", 1252), "café €");
        assert_eq!(decode(b"\xe9", 437), "é");
    }

    #[test]
    fn surrogate_pairs() {
        let mut u = Utf16::default();
        assert_eq!(u.push(-10179), "");
        assert_eq!(u.push(-8704), "😀");
        assert_eq!(u.push(26085), "日");
        assert_eq!(u.push(0xD800), "");
        assert_eq!(u.push(65), "\u{FFFD}A");
        assert_eq!(u.finish(), None);
    }
}
