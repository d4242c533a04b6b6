//! The context an element inherits from its ancestors in the score ([`super::score`]): its
//! flags in one byte, so that an element's context is read from its parent's and stored in
//! one step each (as eight `bool`s it was eight loads and eight stores an element).

/// Context inherited from ancestors: a set of the flags below.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Ctx(u8);

impl Ctx {
    /// Inside page chrome (navigation, banner, footer, sidebar, form, chrome class words).
    pub const CHROME: u8 = 1;
    /// Inside a comment section of an article-like page.
    pub const COMMENTS: u8 = 1 << 1;
    /// Inside `main`/`article`/content class words.
    pub const CONTENT: u8 = 1 << 2;
    /// Inside a `main`/`article` landmark (or `itemprop=articleBody`): the author's own
    /// statement of where the content is.
    pub const LANDMARK: u8 = 1 << 3;
    /// That landmark is mostly links (a page whose content is a list of links).
    pub const LINK_LANDMARK: u8 = 1 << 4;
    /// Inside one item of a group of similar siblings (cards, rows, posts).
    pub const RECORD: u8 = 1 << 5;
    /// Inside an element hidden until a script shows it.
    pub const HIDDEN: u8 = 1 << 6;
    /// The chrome comes from a navigation landmark alone (`<nav>`, `role=tablist`), no
    /// class word or other region: prose holding a good part of the page lifts it.
    pub const NAV_CHROME: u8 = 1 << 7;

    /// Sets `flag` (one of the constants) on or off.
    pub fn set(&mut self, flag: u8, on: bool) {
        self.0 = (self.0 & !flag) | if on { flag } else { 0 };
    }

    fn has(self, flag: u8) -> bool {
        self.0 & flag != 0
    }

    pub fn chrome(self) -> bool {
        self.has(Self::CHROME)
    }

    pub fn comments(self) -> bool {
        self.has(Self::COMMENTS)
    }

    pub fn content(self) -> bool {
        self.has(Self::CONTENT)
    }

    pub fn landmark(self) -> bool {
        self.has(Self::LANDMARK)
    }

    pub fn link_landmark(self) -> bool {
        self.has(Self::LINK_LANDMARK)
    }

    pub fn record(self) -> bool {
        self.has(Self::RECORD)
    }

    pub fn hidden(self) -> bool {
        self.has(Self::HIDDEN)
    }

    pub fn nav_chrome(self) -> bool {
        self.has(Self::NAV_CHROME)
    }
}

#[cfg(test)]
mod tests {
    use super::Ctx;

    #[test]
    fn each_flag_is_set_and_cleared_alone() {
        let flags = [
            Ctx::CHROME,
            Ctx::COMMENTS,
            Ctx::CONTENT,
            Ctx::LANDMARK,
            Ctx::LINK_LANDMARK,
            Ctx::RECORD,
            Ctx::HIDDEN,
            Ctx::NAV_CHROME,
        ];
        let read = |c: Ctx| {
            [
                c.chrome(),
                c.comments(),
                c.content(),
                c.landmark(),
                c.link_landmark(),
                c.record(),
                c.hidden(),
                c.nav_chrome(),
            ]
        };
        for (k, &flag) in flags.iter().enumerate() {
            let mut c = Ctx::default();
            c.set(flag, true);
            let on = read(c);
            assert!(on[k] && on.iter().filter(|&&b| b).count() == 1, "{k}");
            let mut all = Ctx::default();
            for &f in &flags {
                all.set(f, true);
            }
            all.set(flag, false);
            let off = read(all);
            assert!(!off[k] && off.iter().filter(|&&b| b).count() == 7, "{k}");
        }
    }
}
