//! A loaded plugin's compiled code, resident only once it serves. After the
//! load-time checks and its `info` call, a plugin whose code the code cache
//! holds lets go of it — the mapped code and its metadata, and the memory
//! image its `info` instance left in a pool slot — and maps it again at its
//! first call ([`super::loader::map_again`]). Plugins no request uses then
//! hold no resident code. A call waits for the mapping no longer than its
//! deadline (mapping compiles again when the code-cache file is gone).

use super::bindings::Prepared;
use std::time::Instant;
use tokio::sync::OnceCell;
use tokio::time::error::Elapsed;

/// A plugin's pre-instantiated component, held or mapped again on demand.
pub(crate) struct PluginCode {
    prepared: OnceCell<Prepared>,
}

impl PluginCode {
    /// Code held for the plugin's life (nothing to map it from again).
    pub(crate) fn held(prepared: Prepared) -> PluginCode {
        PluginCode {
            prepared: OnceCell::new_with(Some(prepared)),
        }
    }

    /// Code let go of: mapped again at the first call.
    pub(crate) fn released() -> PluginCode {
        PluginCode {
            prepared: OnceCell::new(),
        }
    }

    /// Whether the code is mapped now.
    pub(crate) fn is_mapped(&self) -> bool {
        self.prepared.initialized()
    }

    /// The pre-instantiated component; the first call maps it with `map`
    /// (calls arriving meanwhile wait for that one mapping; after a failure
    /// the next call tries again). `Err(Elapsed)` when it is not ready by
    /// `deadline`: the caller stops waiting (the next call maps it again;
    /// work `map` handed to a blocking thread finishes there, so a compile
    /// still fills the code cache).
    pub(crate) async fn get<F>(
        &self,
        map: impl FnOnce() -> F,
        deadline: Instant,
    ) -> Result<anyhow::Result<&Prepared>, Elapsed>
    where
        F: Future<Output = anyhow::Result<Prepared>>,
    {
        tokio::time::timeout_at(deadline.into(), self.prepared.get_or_try_init(map)).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::time::Duration;

    /// A mapping that never ends (a compile slower than the request) ends
    /// the wait at the deadline, and leaves the code unmapped.
    #[tokio::test]
    async fn waiting_for_the_mapping_ends_at_the_deadline() {
        let code = PluginCode::released();
        let started = Instant::now();
        let deadline = started + Duration::from_millis(200);
        let waited = tokio::time::timeout(
            Duration::from_secs(10),
            code.get(std::future::pending::<anyhow::Result<Prepared>>, deadline),
        )
        .await
        .expect("the wait ended by itself");
        assert!(waited.is_err(), "no code came");
        let took = started.elapsed();
        assert!(
            took >= Duration::from_millis(200) && took < Duration::from_secs(2),
            "{took:?}"
        );
        assert!(!code.is_mapped());
        // A failed mapping is reported as such, before the deadline.
        let failed = code
            .get(
                || async { Err(anyhow::anyhow!("gone")) },
                Instant::now() + Duration::from_secs(5),
            )
            .await
            .expect("answered before the deadline");
        assert!(failed.is_err());
    }
}
