//! A loaded plugin's compiled code, resident only once it serves. After the
//! load-time checks and its `info` call, a plugin whose code the code cache
//! holds lets go of it — the mapped code and its metadata, and the memory
//! image its `info` instance left in a pool slot — and maps it again at its
//! first call ([`super::loader::map_again`]). Plugins no request uses then
//! hold no resident code.

use super::bindings::Prepared;
use tokio::sync::OnceCell;

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
    /// the next call tries again).
    pub(crate) async fn get<F>(&self, map: impl FnOnce() -> F) -> anyhow::Result<&Prepared>
    where
        F: Future<Output = anyhow::Result<Prepared>>,
    {
        self.prepared.get_or_try_init(map).await
    }
}
