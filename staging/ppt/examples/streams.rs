//! Fixture helper: copies a .ppt/.doc compound file without its thumbnail-laden
//! SummaryInformation, writing a minimal one holding only the title.
use std::io::{Read, Write};
fn main() {
    let a: Vec<String> = std::env::args().collect();
    let (src, dst, title) = (&a[1], &a[2], &a[3]);
    let b = std::fs::read(src).unwrap();
    let mut c = cfb::CompoundFile::open(std::io::Cursor::new(&b)).unwrap();
    let entries: Vec<_> = c.walk().filter(|e| e.is_stream()).map(|e| e.path().to_path_buf()).collect();
    let mut out = cfb::CompoundFile::create(std::fs::File::create(dst).unwrap()).unwrap();
    for p in entries {
        let name = p.to_string_lossy().to_string();
        let data = if name.ends_with("\u{5}SummaryInformation") && !name.contains("Document") {
            summary(title)
        } else {
            let mut v = vec![];
            c.open_stream(&p).unwrap().read_to_end(&mut v).unwrap();
            v
        };
        println!("{name} {}", data.len());
        out.create_stream(&p).unwrap().write_all(&data).unwrap();
    }
    out.flush().unwrap();
}
fn summary(title: &str) -> Vec<u8> {
    let fmtid = [0xE0u8, 0x85, 0x9F, 0xF2, 0xF9, 0x4F, 0x68, 0x10, 0xAB, 0x91, 0x08, 0x00, 0x2B, 0x27, 0xB3, 0xD9];
    let mut t = title.as_bytes().to_vec();
    t.push(0);
    while t.len() % 4 != 0 { t.push(0); }
    let mut sec = Vec::new();
    let props_off = 8 + 2 * 8;
    let cp_off = props_off;
    let title_off = cp_off + 8;
    let size = title_off + 8 + t.len();
    sec.extend((size as u32).to_le_bytes());
    sec.extend(2u32.to_le_bytes());
    sec.extend(1u32.to_le_bytes()); sec.extend((cp_off as u32).to_le_bytes());
    sec.extend(2u32.to_le_bytes()); sec.extend((title_off as u32).to_le_bytes());
    sec.extend(2u32.to_le_bytes()); sec.extend(1252u16.to_le_bytes()); sec.extend([0, 0]);
    sec.extend(30u32.to_le_bytes()); sec.extend((t.len() as u32).to_le_bytes()); sec.extend(&t);
    let mut v = vec![0xFE, 0xFF, 0, 0, 5, 1, 2, 0];
    v.extend([0u8; 16]);
    v.extend(1u32.to_le_bytes());
    v.extend(fmtid);
    v.extend(48u32.to_le_bytes());
    v.extend(sec);
    v
}
