//! Colours as the browser computes them (`rgb(…)`, `rgba(…)`, `#hex`) read
//! into [`Rgba`], written as `#RRGGBB`, and judged: transparent, chromatic
//! (a hue one would call a brand colour, not a grey), light or dark.

/// A colour with alpha in 0..=1.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rgba {
    pub r: u8,
    pub g: u8,
    pub b: u8,
    pub a: f64,
}

impl Rgba {
    /// Reads `rgb(1, 2, 3)`, `rgba(1, 2, 3, 0.5)`, `rgb(1 2 3 / 50%)`,
    /// `#abc` or `#aabbcc`; anything else (named, `oklch(…)`) is `None`.
    pub fn parse(text: &str) -> Option<Rgba> {
        let t = text.trim();
        if let Some(hex) = t.strip_prefix('#') {
            return parse_hex(hex);
        }
        let inner = t
            .strip_prefix("rgba(")
            .or_else(|| t.strip_prefix("rgb("))?
            .strip_suffix(')')?;
        let parts: Vec<&str> = inner
            .split([',', ' ', '/'])
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .collect();
        if parts.len() < 3 {
            return None;
        }
        let channel = |p: &str| p.parse::<f64>().ok().map(|v| v.round().clamp(0.0, 255.0) as u8);
        let a = match parts.get(3) {
            Some(p) if p.ends_with('%') => p.trim_end_matches('%').parse::<f64>().ok()? / 100.0,
            Some(p) => p.parse::<f64>().ok()?,
            None => 1.0,
        };
        Some(Rgba {
            r: channel(parts[0])?,
            g: channel(parts[1])?,
            b: channel(parts[2])?,
            a,
        })
    }

    /// `#RRGGBB`.
    pub fn hex(&self) -> String {
        format!("#{:02X}{:02X}{:02X}", self.r, self.g, self.b)
    }

    /// Fully or nearly fully transparent.
    pub fn transparent(&self) -> bool {
        self.a < 0.1
    }

    /// HSL saturation and lightness, each in 0..=1.
    fn saturation_lightness(&self) -> (f64, f64) {
        let [r, g, b] = [self.r, self.g, self.b].map(|c| f64::from(c) / 255.0);
        let max = r.max(g).max(b);
        let min = r.min(g).min(b);
        let l = (max + min) / 2.0;
        let s = if max == min {
            0.0
        } else {
            (max - min) / (1.0 - (2.0 * l - 1.0).abs())
        };
        (s, l)
    }

    /// A hue, not a grey, white or black: a candidate brand colour.
    pub fn chromatic(&self) -> bool {
        let (s, l) = self.saturation_lightness();
        !self.transparent() && s >= 0.25 && (0.12..=0.92).contains(&l)
    }

    /// Relative luminance (WCAG), 0 (black) to 1 (white).
    pub fn luminance(&self) -> f64 {
        let lin = |c: u8| {
            let v = f64::from(c) / 255.0;
            if v <= 0.03928 {
                v / 12.92
            } else {
                ((v + 0.055) / 1.055).powf(2.4)
            }
        };
        0.2126 * lin(self.r) + 0.7152 * lin(self.g) + 0.0722 * lin(self.b)
    }
}

fn parse_hex(hex: &str) -> Option<Rgba> {
    let full: String = match hex.len() {
        3 | 4 => hex.chars().flat_map(|c| [c, c]).collect(),
        6 | 8 => hex.to_string(),
        _ => return None,
    };
    let byte = |i: usize| u8::from_str_radix(full.get(i..i + 2)?, 16).ok();
    let a = if full.len() == 8 {
        f64::from(byte(6)?) / 255.0
    } else {
        1.0
    };
    Some(Rgba {
        r: byte(0)?,
        g: byte(2)?,
        b: byte(4)?,
        a,
    })
}

/// `text` as `#RRGGBB` when it is an opaque-enough colour.
pub fn hex_of(text: &str) -> Option<String> {
    Rgba::parse(text).filter(|c| !c.transparent()).map(|c| c.hex())
}
