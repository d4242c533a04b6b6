//! Text in the code pages of binary office formats (feature `bytes`, no
//! dependencies): Windows-1252 with its € and typographic quotes in 0x80-0x9F,
//! UTF-16LE and UTF-8, as property sets and Word's 8-bit text pieces store them.

/// Windows code page identifier of UTF-16LE (`CP_WINUNICODE`).
pub const UTF16LE: u32 = 1200;
/// Windows code page identifier of UTF-8.
pub const UTF8: u32 = 65001;
/// Windows code page identifier of ISO 8859-1.
pub const LATIN1: u32 = 28591;

/// What Windows-1252 puts at 0x80..0x9F; the five unassigned bytes keep their C1 code.
const CP1252_HIGH: [char; 32] = [
    '€', '\u{81}', '‚', 'ƒ', '„', '…', '†', '‡', 'ˆ', '‰', 'Š', '‹', 'Œ', '\u{8D}', 'Ž', '\u{8F}', '\u{90}',
    '‘', '’', '“', '”', '•', '–', '—', '˜', '™', 'š', '›', 'œ', '\u{9D}', 'ž', 'Ÿ',
];

/// One Windows-1252 byte as a character.
pub fn cp1252_char(b: u8) -> char {
    match b {
        0x80..=0x9F => CP1252_HIGH[(b - 0x80) as usize],
        _ => b as char,
    }
}

/// UTF-16LE code units to text; unpaired surrogates become U+FFFD, an odd last byte is dropped.
pub fn utf16le(b: &[u8]) -> String {
    let units = b.chunks_exact(2).map(|c| u16::from_le_bytes([c[0], c[1]]));
    char::decode_utf16(units)
        .map(|c| c.unwrap_or('\u{FFFD}'))
        .collect()
}

/// Decodes `b` in Windows code page `codepage`: UTF-16LE (1200), UTF-8 (65001,
/// invalid sequences become U+FFFD), ISO 8859-1 (28591); any other page is read as
/// Windows-1252, the code page of Western-language Office documents.
pub fn decode(b: &[u8], codepage: u32) -> String {
    match codepage {
        UTF16LE => utf16le(b),
        UTF8 => String::from_utf8_lossy(b).into_owned(),
        LATIN1 => b.iter().map(|&c| c as char).collect(),
        _ => b.iter().map(|&c| cp1252_char(c)).collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cp1252_maps_euro_and_smart_quotes() {
        assert_eq!(
            decode(b"\x80 5 \x91a\x92 \x93b\x94 \x96 \x85", 1252),
            "€ 5 ‘a’ “b” – …"
        );
        assert_eq!(cp1252_char(0x9F), 'Ÿ');
        assert_eq!(cp1252_char(0x81), '\u{81}');
        assert_eq!(cp1252_char(0xE9), 'é');
        assert_eq!(cp1252_char(b'A'), 'A');
    }

    #[test]
    fn other_code_pages() {
        assert_eq!(decode("€ é".as_bytes(), UTF8), "€ é");
        assert_eq!(decode(b"\x80\xe9", LATIN1), "\u{80}é");
        assert_eq!(decode(b"\xAC\x20\x3D\xD8\x00\xDE\x41", UTF16LE), "€😀");
        assert_eq!(utf16le(b"\x00\xD8A\x00"), "\u{FFFD}A");
        // An unknown page is read as Windows-1252.
        assert_eq!(decode(b"\x93x\x94", 1250), "“x”");
    }
}
