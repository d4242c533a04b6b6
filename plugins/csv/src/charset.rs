//! Bytes of a CSV/TSV upload to text: a BOM (UTF-8, UTF-16LE/BE) wins; then
//! UTF-16 without a BOM (every other byte NUL); binary files are refused;
//! valid UTF-8 is taken as is; anything else is guessed by `chardetng`
//! (Firefox's detector: Shift-JIS, EUC-JP, GBK, EUC-KR, Big5, the Windows and
//! ISO single-byte pages...) and decoded with `encoding_rs`.

use distill_sdk::PluginError;
use encoding_rs::{Encoding, UTF_8, UTF_16BE, UTF_16LE};

/// Most bytes the detector looks at (cut at a line end).
const SAMPLE: usize = 1 << 20;

/// The text of the file and the name of the encoding it was read in.
pub fn decode(bytes: &[u8]) -> Result<(String, &'static str), PluginError> {
    if let Some((enc, bom_len)) = Encoding::for_bom(bytes) {
        return Ok((decode_with(enc, &bytes[bom_len..]), enc.name()));
    }
    if let Some(enc) = utf16_without_bom(bytes) {
        return Ok((decode_with(enc, bytes), enc.name()));
    }
    let head = &bytes[..bytes.len().min(8192)];
    // Binary files (zip, pdf, images...) carry NUL or many control bytes.
    let controls = head
        .iter()
        .filter(|&&b| b < 0x20 && !matches!(b, b'\t' | b'\n' | b'\r' | 0x0C))
        .count();
    if head.contains(&0) || controls * 20 > head.len().max(1) {
        return Err(PluginError::UnsupportedInput(
            "the file is binary, not CSV text".into(),
        ));
    }
    if let Ok(s) = std::str::from_utf8(bytes) {
        return Ok((s.to_string(), UTF_8.name()));
    }
    let enc = guess(bytes);
    Ok((decode_with(enc, bytes), enc.name()))
}

fn decode_with(enc: &'static Encoding, bytes: &[u8]) -> String {
    enc.decode_without_bom_handling(bytes).0.into_owned()
}

/// The legacy encoding `chardetng` finds most likely for non-UTF-8 bytes.
fn guess(bytes: &[u8]) -> &'static Encoding {
    let mut sample = &bytes[..bytes.len().min(SAMPLE)];
    if sample.len() < bytes.len()
        && let Some(nl) = sample.iter().rposition(|&b| b == b'\n')
    {
        sample = &sample[..=nl];
    }
    let mut det = chardetng::EncodingDetector::new(chardetng::Iso2022JpDetection::Deny);
    det.feed(sample, true);
    det.guess(None, chardetng::Utf8Detection::Deny)
}

/// UTF-16 without a BOM: text whose every other byte is NUL (ASCII-range
/// characters), on the same side of most pairs.
fn utf16_without_bom(bytes: &[u8]) -> Option<&'static Encoding> {
    let head = &bytes[..bytes.len().min(8192) & !1];
    let pairs = head.len() / 2;
    if pairs < 2 {
        return None;
    }
    let (mut le, mut be) = (0usize, 0usize);
    for p in head.chunks_exact(2) {
        match (p[0] == 0, p[1] == 0) {
            (false, true) => le += 1,
            (true, false) => be += 1,
            _ => {}
        }
    }
    if le * 10 >= pairs * 9 {
        Some(UTF_16LE)
    } else if be * 10 >= pairs * 9 {
        Some(UTF_16BE)
    } else {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enc_of(bytes: &[u8]) -> &'static str {
        decode(bytes).unwrap().1
    }

    #[test]
    fn boms_and_utf16() {
        assert_eq!(decode(b"\xef\xbb\xbfa,b").unwrap(), ("a,b".into(), "UTF-8"));
        assert_eq!(decode(b"\xff\xfea\x00,\x00").unwrap(), ("a,".into(), "UTF-16LE"));
        assert_eq!(decode(b"\xfe\xff\x00a\x00,").unwrap(), ("a,".into(), "UTF-16BE"));
        assert_eq!(decode(b"a\x00,\x00b\x00\n\x00").unwrap().0, "a,b\n");
        assert_eq!(decode(b"\x00a\x00,\x00b\x00\n").unwrap().0, "a,b\n");
    }

    #[test]
    fn legacy_encodings_are_guessed() {
        // 商品名,価格,備考 / りんご,100,青森産 in Shift-JIS (cp932).
        let sjis = "商品名,価格,備考\nりんご,100,青森産\nみかん,80,愛媛県の名産品です\n";
        let (bytes, _, _) = encoding_rs::SHIFT_JIS.encode(sjis);
        assert_eq!(decode(&bytes).unwrap(), (sjis.to_string(), "Shift_JIS"));
        let (bytes, _, _) = encoding_rs::EUC_JP.encode(sjis);
        assert_eq!(decode(&bytes).unwrap(), (sjis.to_string(), "EUC-JP"));
        let gbk = "产品,价格,说明\n苹果,5,来自山东的新鲜水果\n";
        let (bytes, _, _) = encoding_rs::GBK.encode(gbk);
        assert_eq!(decode(&bytes).unwrap().0, gbk);
        let kr = "이름,나이,도시\n김철수,30,서울특별시에 살고 있습니다\n";
        let (bytes, _, _) = encoding_rs::EUC_KR.encode(kr);
        assert_eq!(decode(&bytes).unwrap().0, kr);
        assert_eq!(enc_of(b"city,temp\nK\xf6ln,3\nS\xe3o Paulo,25\n"), "windows-1252");
        let cz = "město,počet\nPříbram,čtyři sta\nŽďár nad Sázavou,dvě stě\n";
        let (bytes, _, _) = encoding_rs::WINDOWS_1250.encode(cz);
        assert_eq!(decode(&bytes).unwrap().0, cz);
    }

    #[test]
    fn binary_is_refused() {
        assert!(decode(b"PK\x03\x04\x00\x00binary").is_err());
        assert!(decode(b"\x01\x02\x03\x04\x05\x06").is_err());
    }
}
