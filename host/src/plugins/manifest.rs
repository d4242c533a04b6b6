//! What a plugin declares about itself (read from its `info` export at load
//! time), normalised and checked by the host.

use super::bindings::PluginInfo;
use serde::Serialize;

/// A plugin's declaration, as the host keeps it.
#[derive(Debug, Clone, Serialize)]
pub struct Manifest {
    pub name: String,
    pub version: String,
    pub description: String,
    pub formats: Vec<String>,
    pub extensions: Vec<String>,
    pub content_types: Vec<String>,
    pub capabilities: Vec<String>,
    pub memory_limit_mib: Option<u32>,
    pub timeout_ms: Option<u32>,
}

/// Capabilities this host can grant. `log` is always granted; `llm` needs the
/// operator's permission and a configured model.
pub const KNOWN_CAPABILITIES: &[&str] = &["log", "llm"];

impl Manifest {
    /// Normalises a plugin's `info` and rejects declarations the host cannot honour.
    pub fn from_info(info: PluginInfo) -> Result<Self, String> {
        let name = info.name.trim().to_string();
        if name.is_empty()
            || !name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
        {
            return Err(format!(
                "plugin name {:?} must be non-empty and use only letters, digits, '-' and '_'",
                info.name
            ));
        }
        for cap in &info.capabilities {
            if !KNOWN_CAPABILITIES.contains(&cap.as_str()) {
                return Err(format!(
                    "plugin '{name}' asks for capability '{cap}', which this host does not offer (known: {})",
                    KNOWN_CAPABILITIES.join(", ")
                ));
            }
        }
        Ok(Manifest {
            name,
            version: info.version,
            description: info.description,
            formats: info.formats.into_iter().map(|f| f.trim().to_string()).collect(),
            extensions: info
                .extensions
                .into_iter()
                .map(|e| e.trim().trim_start_matches('.').to_ascii_lowercase())
                .collect(),
            content_types: info
                .content_types
                .into_iter()
                .map(|c| c.trim().to_ascii_lowercase())
                .collect(),
            capabilities: info.capabilities,
            memory_limit_mib: info.memory_limit_mib,
            timeout_ms: info.timeout_ms,
        })
    }
}
