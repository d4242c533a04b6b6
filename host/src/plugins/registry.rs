//! The set of loaded plugins, indexed by the formats, extensions and content
//! types they serve. A registry is immutable: a reload builds a new one and
//! swaps it in whole.

use super::bindings::PluginKind;
use super::plugin::LoadedPlugin;
use crate::api::scrape_request::Catalog;
use std::collections::HashMap;
use std::path::Path;
use std::sync::{Arc, OnceLock};

/// Loaded plugins and their lookup tables.
#[derive(Default)]
pub struct Registry {
    plugins: Vec<Arc<LoadedPlugin>>,
    by_format: HashMap<String, Arc<LoadedPlugin>>,
    by_extension: HashMap<String, Arc<LoadedPlugin>>,
    by_content_type: HashMap<String, Arc<LoadedPlugin>>,
    /// [`Registry::renderers`], made at its first use.
    renderers: OnceLock<String>,
}

impl Registry {
    /// Adds a plugin unless something it serves is already taken.
    pub fn insert(&mut self, plugin: Arc<LoadedPlugin>) -> Result<(), String> {
        let name = &plugin.manifest.name;
        if let Some(other) = self.plugins.iter().find(|p| &p.manifest.name == name) {
            return Err(format!(
                "a plugin named '{name}' is already loaded from {}",
                other.path.display()
            ));
        }
        let claims = [
            ("format", &plugin.manifest.formats, &self.by_format),
            ("extension", &plugin.manifest.extensions, &self.by_extension),
            (
                "content type",
                &plugin.manifest.content_types,
                &self.by_content_type,
            ),
        ];
        for (what, keys, table) in claims {
            for key in keys {
                if let Some(owner) = table.get(key) {
                    return Err(format!(
                        "plugin '{name}' ({}) claims {what} '{key}', already served by plugin '{}' ({})",
                        plugin.path.display(),
                        owner.manifest.name,
                        owner.path.display()
                    ));
                }
            }
        }
        for f in &plugin.manifest.formats {
            self.by_format.insert(f.clone(), plugin.clone());
        }
        for e in &plugin.manifest.extensions {
            self.by_extension.insert(e.clone(), plugin.clone());
        }
        for c in &plugin.manifest.content_types {
            self.by_content_type.insert(c.clone(), plugin.clone());
        }
        self.plugins.push(plugin);
        self.renderers = OnceLock::new();
        Ok(())
    }

    /// The identity of the code that renders formats, which the page
    /// cache's result keys include: the sha256 (hex) of the loaded plugins'
    /// hashes, sorted and comma-joined; empty when none is loaded. Made once
    /// per registry, not once per scrape, and 64 characters however many
    /// plugins there are (a key hashes it on every scrape).
    pub fn renderers(&self) -> &str {
        self.renderers
            .get_or_init(|| renderers_of(self.plugins.iter().map(|p| p.sha256.as_str())))
    }

    /// The format plugin serving `format`, if any.
    pub fn format(&self, format: &str) -> Option<&Arc<LoadedPlugin>> {
        self.by_format
            .get(format)
            .filter(|p| p.kind == PluginKind::Format)
    }

    /// The converter for a file extension (lower case, no dot), if any.
    pub fn converter_for_extension(&self, ext: &str) -> Option<&Arc<LoadedPlugin>> {
        self.by_extension.get(&ext.to_ascii_lowercase())
    }

    /// The converter for a MIME type (parameters ignored), if any.
    pub fn converter_for_content_type(&self, content_type: &str) -> Option<&Arc<LoadedPlugin>> {
        let mime = content_type
            .split(';')
            .next()
            .unwrap_or("")
            .trim()
            .to_ascii_lowercase();
        self.by_content_type.get(&mime)
    }

    /// Every file extension some converter serves, sorted.
    pub fn converter_extensions(&self) -> Vec<String> {
        let mut exts: Vec<String> = self.by_extension.keys().cloned().collect();
        exts.sort();
        exts
    }

    /// The plugin loaded from `path`, if any.
    pub fn by_path(&self, path: &Path) -> Option<&Arc<LoadedPlugin>> {
        self.plugins.iter().find(|p| p.path == path)
    }

    /// Every loaded plugin, in load order.
    pub fn plugins(&self) -> &[Arc<LoadedPlugin>] {
        &self.plugins
    }
}

/// [`Registry::renderers`] of plugins with these hashes.
fn renderers_of<'a>(hashes: impl Iterator<Item = &'a str>) -> String {
    use sha2::{Digest, Sha256};
    let mut hashes: Vec<&str> = hashes.collect();
    if hashes.is_empty() {
        return String::new();
    }
    hashes.sort_unstable();
    hex::encode(Sha256::digest(hashes.join(",").as_bytes()))
}

/// Request validation asks the registry which plugin formats and converter
/// parsers exist.
impl Catalog for Registry {
    fn has_format(&self, name: &str) -> bool {
        self.format(name).is_some()
    }

    fn has_parser(&self, name: &str) -> bool {
        self.plugins.iter().any(|p| {
            p.kind == PluginKind::Converter && p.manifest.parser.as_ref().is_some_and(|d| d.name == name)
        })
    }

    fn plugin_formats(&self) -> Vec<String> {
        let mut names: Vec<String> = self
            .by_format
            .iter()
            .filter(|(_, p)| p.kind == PluginKind::Format)
            .map(|(name, _)| name.clone())
            .collect();
        names.sort();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::renderers_of;

    #[test]
    fn the_renderers_identity_is_one_digest_of_the_sorted_hashes() {
        assert_eq!(renderers_of(std::iter::empty()), "", "no plugins: no identity");
        let ab = renderers_of(["sha-a", "sha-b"].into_iter());
        assert_eq!(ab.len(), 64);
        assert_eq!(
            renderers_of(["sha-b", "sha-a"].into_iter()),
            ab,
            "load order does not matter"
        );
        assert_ne!(renderers_of(["sha-a", "sha-c"].into_iter()), ab);
        assert_ne!(renderers_of(["sha-a"].into_iter()), ab);
        // The digest of the text the keys used to hash whole.
        use sha2::{Digest, Sha256};
        assert_eq!(ab, hex::encode(Sha256::digest(b"sha-a,sha-b")));
    }
}
