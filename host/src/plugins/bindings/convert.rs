//! Conversions between the current ABI's types and those of older versions.
//! The records are the same shape; only their Rust types differ.

use super::v0_1::format::distill::plugin::types as v1;
use super::{Document, DocumentKind, FileInput, Page, PluginError, PluginInfo};

pub fn page_to_v1(p: &Page) -> v1::Page {
    v1::Page {
        requested_url: p.requested_url.clone(),
        final_url: p.final_url.clone(),
        status_code: p.status_code,
        content_type: p.content_type.clone(),
        raw_html: p.raw_html.clone(),
        cleaned_html: p.cleaned_html.clone(),
        metadata: p.metadata.clone(),
    }
}

pub fn file_to_v1(f: &FileInput) -> v1::FileInput {
    v1::FileInput {
        name: f.name.clone(),
        content_type: f.content_type.clone(),
        bytes: f.bytes.clone(),
    }
}

pub fn info_from_v1(i: v1::PluginInfo) -> PluginInfo {
    PluginInfo {
        name: i.name,
        version: i.version,
        description: i.description,
        formats: i.formats,
        extensions: i.extensions,
        content_types: i.content_types,
        capabilities: i.capabilities,
        memory_limit_mib: i.memory_limit_mib,
        timeout_ms: i.timeout_ms,
    }
}

pub fn error_from_v1(e: v1::PluginError) -> PluginError {
    match e {
        v1::PluginError::InvalidOptions(m) => PluginError::InvalidOptions(m),
        v1::PluginError::UnsupportedInput(m) => PluginError::UnsupportedInput(m),
        v1::PluginError::Failed(m) => PluginError::Failed(m),
    }
}

pub fn document_from_v1(d: v1::Document) -> Document {
    Document {
        kind: match d.kind {
            v1::DocumentKind::Html => DocumentKind::Html,
            v1::DocumentKind::Markdown => DocumentKind::Markdown,
        },
        content: d.content,
        metadata: d.metadata,
        warnings: d.warnings,
    }
}
