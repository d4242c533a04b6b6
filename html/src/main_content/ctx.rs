//! The context an element inherits from its ancestors in the score ([`super::score`]): its
//! flags in one byte, so that an element's context is read from its parent's and stored in
//! one step each (as eight `bool`s it was eight loads and eight stores an element).

/// Context inherited from ancestors: a set of the flags below.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub(super) struct Ctx(u8);

/// The flags: for each, its constant (a bit of the byte) and the method that reads it.
macro_rules! flags {
    ($($(#[$doc:meta])* $name:ident = $bit:literal, $get:ident;)*) => {
        impl Ctx {
            $($(#[$doc])* pub const $name: u8 = 1 << $bit;)*
            $(pub fn $get(self) -> bool {
                self.0 & Self::$name != 0
            })*
        }
    };
}

flags! {
    /// Inside page chrome (navigation, banner, footer, sidebar, form, chrome class words).
    CHROME = 0, chrome;
    /// Inside a comment section of an article-like page.
    COMMENTS = 1, comments;
    /// Inside `main`/`article`/content class words.
    CONTENT = 2, content;
    /// Inside a `main`/`article` landmark (or `itemprop=articleBody`): the author's own
    /// statement of where the content is.
    LANDMARK = 3, landmark;
    /// That landmark is mostly links (a page whose content is a list of links).
    LINK_LANDMARK = 4, link_landmark;
    /// Inside one item of a group of similar siblings (cards, rows, posts).
    RECORD = 5, record;
    /// Inside an element hidden until a script shows it.
    HIDDEN = 6, hidden;
    /// The chrome comes from a navigation landmark alone (`<nav>`, `role=tablist`), no
    /// class word or other region: prose holding a good part of the page lifts it.
    NAV_CHROME = 7, nav_chrome;
}

impl Ctx {
    /// Sets `flag` (one of the constants, or several or-ed) on or off.
    pub fn set(&mut self, flag: u8, on: bool) {
        self.0 = (self.0 & !flag) | if on { flag } else { 0 };
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
