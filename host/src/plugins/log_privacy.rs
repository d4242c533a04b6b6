//! Whether the plugin calls of the current request may log what plugins say.
//! Under zero data retention (and lockdown) a plugin's own log lines and its
//! stdout/stderr can carry the page's URL or content, so the host logs only
//! that they were withheld and how long they were. The pipeline sets the flag
//! for a request's whole task with [`private`]; [`is_private`] reads it when a
//! call starts.

use std::future::Future;

tokio::task_local! {
    static PRIVATE: bool;
}

/// Runs `work` with plugin log lines withheld when `private` is true.
pub async fn private<T>(private: bool, work: impl Future<Output = T>) -> T {
    PRIVATE.scope(private, work).await
}

/// True inside [`private`]`(true, ..)`.
pub fn is_private() -> bool {
    PRIVATE.try_with(|p| *p).unwrap_or(false)
}

/// What is logged instead of a withheld message.
pub fn withheld(message: &str) -> String {
    format!("[withheld under zero data retention: {} bytes]", message.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_flag_holds_inside_its_scope_only() {
        assert!(!is_private());
        assert!(private(true, async { is_private() }).await);
        assert!(!private(false, async { is_private() }).await);
        assert!(!is_private());
        assert_eq!(
            withheld("https://x"),
            "[withheld under zero data retention: 9 bytes]"
        );
    }
}
