//! What a plugin declares about itself (read from its `info` export at load
//! time), normalised and checked by the host.

use super::bindings::{OptionKind, OptionSpec, ParserSpec, PluginInfo};
use super::page_parts::PageParts;
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
    /// Formats this (format) plugin reads from `page.inputs` (ABI 0.3).
    pub consumes: Vec<String>,
    /// The parts of `page` it reads (`page:` entries of its `consumes`; all
    /// when it names none).
    pub reads: PageParts,
    /// The `parsers` entry that configures this (converter) plugin (ABI 0.3).
    pub parser: Option<ParserDecl>,
}

/// A converter's `parsers` entry: its type and typed options.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ParserDecl {
    pub name: String,
    pub options: Vec<OptionDecl>,
    pub raw_unless_listed: bool,
}

/// One declared converter option.
#[derive(Debug, Clone, Serialize)]
pub struct OptionDecl {
    pub name: String,
    /// "boolean", "integer", "number" or "text".
    pub kind: &'static str,
    pub description: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub minimum: Option<i64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub maximum: Option<i64>,
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub choices: Vec<String>,
}

impl From<OptionSpec> for OptionDecl {
    fn from(o: OptionSpec) -> Self {
        OptionDecl {
            name: o.name,
            kind: match o.kind {
                OptionKind::Boolean => "boolean",
                OptionKind::Integer => "integer",
                OptionKind::Number => "number",
                OptionKind::Text => "text",
            },
            description: o.description,
            minimum: o.minimum,
            maximum: o.maximum,
            choices: o.choices,
        }
    }
}

fn parser_decl(name: &str, p: ParserSpec) -> Result<ParserDecl, String> {
    let parser = p.name.trim().to_string();
    if parser.is_empty() {
        return Err(format!("plugin '{name}' declares a parser with an empty name"));
    }
    let options: Vec<OptionDecl> = p.options.into_iter().map(OptionDecl::from).collect();
    for (i, o) in options.iter().enumerate() {
        if o.name == "type" || options[..i].iter().any(|other| other.name == o.name) {
            return Err(format!(
                "plugin '{name}' declares parser option '{}' twice or reserved",
                o.name
            ));
        }
    }
    Ok(ParserDecl {
        name: parser,
        options,
        raw_unless_listed: p.raw_unless_listed,
    })
}

/// Capabilities this host can grant. `log` is always granted; `llm` needs the
/// operator's permission and a configured model; `media` the operator's
/// permission (ABI 0.3 format plugins).
pub const KNOWN_CAPABILITIES: &[&str] = &["log", "llm", "media"];

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
        if let Some(own) = info.consumes.iter().find(|c| info.formats.contains(c)) {
            return Err(format!(
                "plugin '{name}' consumes '{own}', a format it renders itself"
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
        let parser = info.parser.map(|p| parser_decl(&name, p)).transpose()?;
        let (consumes, reads) = PageParts::split(&name, info.consumes)?;
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
            consumes,
            reads,
            parser,
        })
    }
}
