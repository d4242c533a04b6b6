//! The `media` capability (ABI 0.3, format plugins): the host fetches a media
//! file the plugin chose and extracts its audio (MP3) or keeps / remuxes its
//! video (MP4 or WebM), stores it and returns a signed URL that expires.
//! Declare it with `PluginInfo::capability("media")`; without that, or when
//! the operator does not allow it, calls return `Err`.

use crate::bindings::format::distill::plugin::media as host;

pub use host::{ExtractedMedia, MediaKind};

/// Fetches `url` and produces `kind` from it; returns the stored file's
/// signed URL, or one sentence saying why not (for a warning). In native
/// builds (unit tests) it answers from the handler set with [`mock::set`].
pub fn extract(url: &str, kind: MediaKind) -> Result<ExtractedMedia, String> {
    #[cfg(target_arch = "wasm32")]
    {
        host::extract(url, kind)
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        let _ = host::extract;
        mock::answer(url, kind)
    }
}

/// A stand-in for the host in native unit tests (per thread).
#[cfg(not(target_arch = "wasm32"))]
pub mod mock {
    use super::{ExtractedMedia, MediaKind};
    use std::cell::RefCell;

    type Handler = Box<dyn Fn(&str, MediaKind) -> Result<ExtractedMedia, String>>;

    thread_local! {
        static HANDLER: RefCell<Option<Handler>> = const { RefCell::new(None) };
    }

    /// Answers this thread's `media::extract` calls with `handler`.
    pub fn set(handler: impl Fn(&str, MediaKind) -> Result<ExtractedMedia, String> + 'static) {
        HANDLER.with(|h| *h.borrow_mut() = Some(Box::new(handler)));
    }

    /// Removes the handler: calls fail again as outside the host.
    pub fn clear() {
        HANDLER.with(|h| *h.borrow_mut() = None);
    }

    pub(super) fn answer(url: &str, kind: MediaKind) -> Result<ExtractedMedia, String> {
        HANDLER.with(|h| match h.borrow().as_ref() {
            Some(handler) => handler(url, kind),
            None => Err("the media capability is only available inside the Distill host \
                         (in unit tests, set a handler with distill_sdk::media::mock::set)"
                .to_string()),
        })
    }
}
