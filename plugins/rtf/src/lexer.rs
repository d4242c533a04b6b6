//! RTF tokens: groups, control words with their parameter, control symbols,
//! `\'hh` bytes and runs of literal text. `\binN` data is skipped here; raw
//! CR/LF in the source are not content and never reach the converter.

/// One token of the RTF source.
#[derive(Debug, PartialEq, Eq)]
pub enum Token<'a> {
    /// `{`
    Open,
    /// `}`
    Close,
    /// `\word` or `\wordN` (N clamped to `i32`); the delimiting space is consumed.
    Word(&'a str, Option<i32>),
    /// `\` followed by a non-letter other than `'` (e.g. `\*`, `\~`, `\\`, `\{`).
    Symbol(u8),
    /// `\'hh`: one byte in the current code page.
    Hex(u8),
    /// Literal bytes up to the next `{`, `}`, `\` or line break.
    Text(&'a [u8]),
}

/// Splits RTF bytes into [`Token`]s.
pub struct Lexer<'a> {
    src: &'a [u8],
    pos: usize,
}

impl<'a> Lexer<'a> {
    pub fn new(src: &'a [u8]) -> Self {
        Lexer { src, pos: 0 }
    }

    fn word(&mut self) -> Token<'a> {
        let src = self.src;
        let s = self.pos;
        while self.pos < src.len() && src[self.pos].is_ascii_alphabetic() && self.pos - s < 32 {
            self.pos += 1;
        }
        let word = std::str::from_utf8(&src[s..self.pos]).unwrap_or("");
        let ps = self.pos;
        if src.get(self.pos) == Some(&b'-') {
            self.pos += 1;
        }
        while self.pos < src.len() && src[self.pos].is_ascii_digit() && self.pos - ps < 11 {
            self.pos += 1;
        }
        let param = std::str::from_utf8(&src[ps..self.pos])
            .ok()
            .and_then(|p| p.parse::<i64>().ok())
            .map(|v| v.clamp(i32::MIN as i64, i32::MAX as i64) as i32);
        if src.get(self.pos) == Some(&b' ') {
            self.pos += 1;
        }
        Token::Word(word, param)
    }
}

impl<'a> Iterator for Lexer<'a> {
    type Item = Token<'a>;

    fn next(&mut self) -> Option<Token<'a>> {
        let src = self.src;
        loop {
            let b = *src.get(self.pos)?;
            match b {
                b'{' => {
                    self.pos += 1;
                    return Some(Token::Open);
                }
                b'}' => {
                    self.pos += 1;
                    return Some(Token::Close);
                }
                b'\r' | b'\n' => self.pos += 1,
                b'\\' => {
                    self.pos += 1;
                    let n = *src.get(self.pos)?;
                    if n.is_ascii_alphabetic() {
                        let tok = self.word();
                        if let Token::Word("bin", param) = tok {
                            let len = param.unwrap_or(0).max(0) as usize;
                            self.pos = self.pos.saturating_add(len).min(src.len());
                            continue;
                        }
                        return Some(tok);
                    }
                    self.pos += 1;
                    if n != b'\'' {
                        return Some(Token::Symbol(n));
                    }
                    let hex = src
                        .get(self.pos..self.pos + 2)
                        .and_then(|h| std::str::from_utf8(h).ok())
                        .and_then(|h| u8::from_str_radix(h, 16).ok());
                    self.pos = (self.pos + 2).min(src.len());
                    if let Some(v) = hex {
                        return Some(Token::Hex(v));
                    }
                }
                _ => {
                    let s = self.pos;
                    while self.pos < src.len()
                        && !matches!(src[self.pos], b'{' | b'}' | b'\\' | b'\r' | b'\n')
                    {
                        self.pos += 1;
                    }
                    return Some(Token::Text(&src[s..self.pos]));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens() {
        let toks: Vec<_> = Lexer::new(b"{\\b1 x\\'e9\\u-3 \\*\\bin2 ab}\r\ny").collect();
        assert_eq!(
            toks,
            vec![
                Token::Open,
                Token::Word("b", Some(1)),
                Token::Text(b"x"),
                Token::Hex(0xe9),
                Token::Word("u", Some(-3)),
                Token::Symbol(b'*'),
                Token::Close,
                Token::Text(b"y"),
            ]
        );
    }
}
