//! The data types plugins exchange with the host, with small conveniences on top
//! of the generated WIT records.

use crate::bindings::format::distill::plugin::types;

pub use types::{Document, DocumentKind, FileInput, Page, PluginError, PluginInfo};

impl PluginInfo {
    /// A manifest with a name and version and nothing served yet; chain
    /// [`PluginInfo::format`], [`PluginInfo::extension`], ... to fill it in.
    /// Pass `env!("CARGO_PKG_NAME")` and `env!("CARGO_PKG_VERSION")`.
    pub fn new(name: &str, version: &str) -> Self {
        PluginInfo {
            name: name.strip_prefix("distill-").unwrap_or(name).to_string(),
            version: version.to_string(),
            description: String::new(),
            formats: Vec::new(),
            extensions: Vec::new(),
            content_types: Vec::new(),
            capabilities: Vec::new(),
            memory_limit_mib: None,
            timeout_ms: None,
        }
    }

    /// Sets the one-line description shown to operators.
    pub fn description(mut self, text: &str) -> Self {
        self.description = text.to_string();
        self
    }

    /// Adds a format this plugin renders.
    pub fn format(mut self, name: &str) -> Self {
        self.formats.push(name.to_string());
        self
    }

    /// Adds a file extension (without the dot) this converter handles.
    pub fn extension(mut self, ext: &str) -> Self {
        self.extensions
            .push(ext.trim_start_matches('.').to_ascii_lowercase());
        self
    }

    /// Adds a MIME type this converter handles.
    pub fn content_type(mut self, mime: &str) -> Self {
        self.content_types.push(mime.to_ascii_lowercase());
        self
    }

    /// Asks for a host capability (granted only if the operator allows it).
    pub fn capability(mut self, name: &str) -> Self {
        self.capabilities.push(name.to_string());
        self
    }

    /// Declares the memory one call needs, in MiB.
    pub fn memory_limit_mib(mut self, mib: u32) -> Self {
        self.memory_limit_mib = Some(mib);
        self
    }

    /// Declares the longest one call may take, in milliseconds.
    pub fn timeout_ms(mut self, ms: u32) -> Self {
        self.timeout_ms = Some(ms);
        self
    }
}

impl Page {
    /// The page's metadata as a JSON value (an object; `Null` if the host sent none).
    pub fn metadata_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.metadata).unwrap_or(serde_json::Value::Null)
    }
}

impl Document {
    /// An HTML document; the host cleans it and renders the requested formats.
    pub fn html(content: impl Into<String>) -> Self {
        Document {
            kind: DocumentKind::Html,
            content: content.into(),
            metadata: "{}".to_string(),
            warnings: Vec::new(),
        }
    }

    /// A markdown document, used as the markdown output as is.
    pub fn markdown(content: impl Into<String>) -> Self {
        Document {
            kind: DocumentKind::Markdown,
            content: content.into(),
            metadata: "{}".to_string(),
            warnings: Vec::new(),
        }
    }

    /// Sets the metadata merged into the response (e.g. `title`, `numPages`).
    pub fn with_metadata(mut self, metadata: serde_json::Value) -> Self {
        self.metadata = metadata.to_string();
        self
    }

    /// Adds a warning for the response's `warning` field.
    pub fn with_warning(mut self, warning: impl Into<String>) -> Self {
        self.warnings.push(warning.into());
        self
    }
}
