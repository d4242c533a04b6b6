//! Checks an .xlsb workbook's global records (`xl/workbook.bin`) before
//! calamine reads them. calamine 0.38 slices some of these records by the
//! lengths they declare without checking them against the record's size, and
//! looks a sheet's relationship id up without checking it exists: a panic on a
//! malformed file (found by fuzzing; the sandbox contains it, but the upload
//! deserves a clear refusal). This walk follows the same records in the same
//! order with the same reuse of one read buffer, and refuses the file where
//! calamine would slice short.

/// A record stream: a type of one or two bytes (7 bits each), then a size of
/// one to four bytes (7 bits each), then the body.
pub(crate) struct Records<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Records<'a> {
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        Records { bytes, at: 0 }
    }

    fn byte(&mut self) -> Option<u8> {
        let b = *self.bytes.get(self.at)?;
        self.at += 1;
        Some(b)
    }

    pub(crate) fn kind(&mut self) -> Option<u16> {
        let b = self.byte()?;
        if b & 0x80 == 0 {
            return Some(b as u16);
        }
        Some((b & 0x7F) as u16 + (((self.byte()? & 0x7F) as u16) << 7))
    }

    /// Reads a body into `buf` as calamine does: the buffer only grows, and
    /// its first `size` bytes are overwritten. `None` at a truncated record
    /// (calamine stops there with a read error, no panic).
    pub(crate) fn body(&mut self, buf: &mut Vec<u8>) -> Option<usize> {
        let mut b = self.byte()?;
        let mut size = (b & 0x7F) as usize;
        for i in 1..4 {
            if b & 0x80 == 0 {
                break;
            }
            b = self.byte()?;
            size += ((b & 0x7F) as usize) << (7 * i);
        }
        let body = self.bytes.get(self.at..self.at.checked_add(size)?)?;
        if buf.len() < size {
            buf.resize(size, 0);
        }
        buf[..size].copy_from_slice(body);
        self.at += size;
        Some(size)
    }
}

pub(crate) fn u32_at(buf: &[u8], at: usize) -> Option<u32> {
    let b = buf.get(at..at.checked_add(4)?)?;
    Some(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// `Err` names the record calamine could not read safely. `is_relationship`
/// says whether `xl/_rels/workbook.bin.rels` has a relationship of that id.
/// `Ok` holds the relationship ids of the sheet records, in order (the
/// worksheets calamine will read, see `xlsb_parts`).
pub fn check(workbook_bin: &[u8], is_relationship: &dyn Fn(&str) -> bool) -> Result<Vec<String>, String> {
    let mut records = Records::new(workbook_bin);
    let mut sheets = Vec::new();
    let mut buf = Vec::new();
    // Workbook properties and the sheet list, up to BrtEndBundleShs.
    loop {
        let Some(kind) = records.kind() else {
            return Ok(sheets);
        };
        let Some(size) = records.body(&mut buf) else {
            return Ok(sheets);
        };
        match kind {
            0x0099 if size == 0 => return Err("an empty workbook properties record".into()),
            0x009C => sheets.extend(check_sheet(&buf[..size], is_relationship)?),
            0x0090 => break,
            _ => {}
        }
        buf.clear();
    }
    // Defined names: the buffer is no longer cleared between records.
    loop {
        let Some(kind) = records.kind() else {
            return Ok(sheets);
        };
        match kind {
            0x009D | 0x0225 | 0x018D | 0x0180 | 0x009A | 0x0252 | 0x0229 | 0x009B | 0x0084 => {
                return Ok(sheets);
            }
            0x016A => {
                if records.body(&mut buf).is_none() {
                    return Ok(sheets);
                }
                let count = u32_at(&buf, 0).ok_or("an extern sheet record under 4 bytes")? as usize;
                let short = buf[4..].chunks(12).take(count).any(|xti| xti.len() < 8);
                if short {
                    return Err("an extern sheet record with a cut entry".into());
                }
            }
            _ => {
                if records.body(&mut buf).is_none() {
                    return Ok(sheets);
                }
            }
        }
    }
}

/// A sheet record (BrtBundleSh): state (4), sheet id (4), relationship id
/// (length-prefixed UTF-16, or 0xFFFFFFFF for none), name. `Some` holds
/// the relationship id of a sheet calamine lists.
fn check_sheet(record: &[u8], is_relationship: &dyn Fn(&str) -> bool) -> Result<Option<String>, String> {
    let rel_chars = u32_at(record, 8).ok_or("a sheet record under 12 bytes")?;
    if rel_chars == u32::MAX {
        return Ok(None);
    }
    let end = (rel_chars as usize)
        .checked_mul(2)
        .and_then(|n| n.checked_add(12))
        .filter(|&end| end <= record.len())
        .ok_or("a sheet record whose relationship id runs past its end")?;
    let id_bytes = &record[12..end];
    // calamine decodes the id with BOM sniffing (a BOM switches the
    // encoding); no real id starts with one, so such a record is refused
    // rather than second-guessed.
    if [&b"\xEF\xBB\xBF"[..], b"\xFF\xFE", b"\xFE\xFF"]
        .iter()
        .any(|bom| id_bytes.starts_with(bom))
    {
        return Err("a sheet record whose relationship id starts with a byte order mark".into());
    }
    let units: Vec<u16> = id_bytes
        .chunks_exact(2)
        .map(|c| u16::from_le_bytes([c[0], c[1]]))
        .collect();
    let id = String::from_utf16_lossy(&units);
    if !is_relationship(&id) {
        return Err("a sheet record naming a relationship the workbook does not have".into());
    }
    Ok(Some(id))
}

/// The `<Relationship>` elements that have both `Id` and `Target`, id (raw
/// attribute value, as calamine keeps it) to target (entities decoded, as
/// calamine decodes it), from a `.rels` part.
pub fn relationships(xml: &str) -> std::collections::HashMap<String, String> {
    let mut ids = std::collections::HashMap::new();
    let mut rest = xml;
    while let Some(at) = rest.find("<Relationship") {
        rest = &rest[at + "<Relationship".len()..];
        if !rest.starts_with(|c: char| c.is_ascii_whitespace() || c == '>' || c == '/') {
            continue;
        }
        let tag = &rest[..rest.find('>').unwrap_or(rest.len())];
        let (id, target) = (attribute(tag, "Id"), attribute(tag, "Target"));
        if let (Some(id), Some(target)) = (id, target) {
            ids.insert(id.to_string(), unescape(target));
        }
    }
    ids
}

/// An attribute value with XML's named and numeric character references
/// decoded (what calamine does to a relationship's target).
fn unescape(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(at) = rest.find('&') {
        out.push_str(&rest[..at]);
        rest = &rest[at..];
        let Some(end) = rest.find(';') else { break };
        let decoded = match &rest[1..end] {
            "lt" => Some('<'),
            "gt" => Some('>'),
            "amp" => Some('&'),
            "apos" => Some('\''),
            "quot" => Some('"'),
            e => e
                .strip_prefix("#x")
                .map(|h| u32::from_str_radix(h, 16))
                .or_else(|| e.strip_prefix('#').map(|d| d.parse::<u32>()))
                .and_then(Result::ok)
                .and_then(char::from_u32),
        };
        match decoded {
            Some(c) => {
                out.push(c);
                rest = &rest[end + 1..];
            }
            None => {
                out.push('&');
                rest = &rest[1..];
            }
        }
    }
    out.push_str(rest);
    out
}

/// The raw value of `name="..."` or `name='...'` in a start tag's text.
fn attribute<'a>(tag: &'a str, name: &str) -> Option<&'a str> {
    let mut rest = tag;
    loop {
        let at = rest.find(name)?;
        let before = rest[..at].chars().next_back();
        rest = &rest[at + name.len()..];
        if !before.is_some_and(|c| c.is_ascii_whitespace()) {
            continue;
        }
        let value = rest.trim_start().strip_prefix('=')?.trim_start();
        let quote = value.chars().next().filter(|&q| q == '"' || q == '\'')?;
        let value = &value[1..];
        return value.find(quote).map(|end| &value[..end]);
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;

    /// One record: type, size, body (sizes under 128, types under 128);
    /// also builds xlsb_parts' test records.
    pub(crate) fn record(kind: u8, body: &[u8]) -> Vec<u8> {
        let mut out = vec![kind, body.len() as u8];
        out.extend_from_slice(body);
        out
    }

    fn sheet(rel: &str, rel_chars: u32) -> Vec<u8> {
        let mut body = vec![0; 8];
        body.extend_from_slice(&rel_chars.to_le_bytes());
        for u in rel.encode_utf16() {
            body.extend_from_slice(&u.to_le_bytes());
        }
        body.extend_from_slice(&5u32.to_le_bytes());
        for u in "Sheet".encode_utf16() {
            body.extend_from_slice(&u.to_le_bytes());
        }
        body
    }

    fn known(id: &str) -> bool {
        id == "rId1"
    }

    #[test]
    fn a_well_formed_sheet_list_passes() {
        // Types over 127 take two bytes: 0x99 (properties) is 0x99 0x01.
        let mut bin = vec![0x99, 0x01, 1, 0];
        bin.extend(record(0x05, &[7, 7]));
        bin.extend([0x9C, 0x01]);
        let body = sheet("rId1", 4);
        bin.push(body.len() as u8);
        bin.extend(&body);
        bin.extend([0x90, 0x01, 0x00]);
        assert_eq!(check(&bin, &known), Ok(vec!["rId1".to_string()]));
    }

    #[test]
    fn a_relationship_id_past_the_record_is_refused() {
        let mut bin = vec![0x9C, 0x01];
        let body = sheet("rId1", 400);
        bin.push(body.len() as u8);
        bin.extend(&body);
        assert!(check(&bin, &known).unwrap_err().contains("runs past"));
    }

    #[test]
    fn an_unknown_relationship_and_a_short_record_are_refused() {
        let mut bin = vec![0x9C, 0x01];
        let body = sheet("rId9", 4);
        bin.push(body.len() as u8);
        bin.extend(&body);
        assert!(check(&bin, &known).unwrap_err().contains("does not have"));
        let short = [0x9C, 0x01, 3, 0, 0, 0];
        assert!(check(&short, &known).unwrap_err().contains("under 12"));
        let empty_properties = [0x99, 0x01, 0];
        assert!(
            check(&empty_properties, &known)
                .unwrap_err()
                .contains("properties")
        );
    }

    #[test]
    fn relationships_need_an_id_and_a_target() {
        let xml = r#"<Relationships><Relationship Id="rId1" Target="worksheets/sheet1.bin"/>
            <Relationship Target='a&amp;b&#x2F;c' Id='rId2'/><Relationship Id="rId3"/><RelationshipX Id="rId4" Target="y"/></Relationships>"#;
        let rels = relationships(xml);
        let mut ids: Vec<&str> = rels.keys().map(String::as_str).collect();
        ids.sort();
        assert_eq!(ids, ["rId1", "rId2"]);
        assert_eq!(rels["rId1"], "worksheets/sheet1.bin");
        assert_eq!(rels["rId2"], "a&b/c");
    }
}
