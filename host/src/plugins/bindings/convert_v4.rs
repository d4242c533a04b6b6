//! Conversions between the current ABI's types and 0.4.0's, which differ
//! only in `rendered.value` (0.5.0): an 0.4 plugin's value is JSON text;
//! everything else is copied field by field.

use super::v0_4::types as old;
use super::v0_5::types::{
    Document, DocumentKind, FileInput, FormatInput, FormatValue, OcrPage, OptionKind, OptionSpec, Page,
    ParserSpec, PluginError, PluginInfo, Rendered, Setting, SettingValue,
};

pub fn page(p: &Page) -> old::Page {
    old::Page {
        requested_url: p.requested_url.clone(),
        final_url: p.final_url.clone(),
        status_code: p.status_code,
        content_type: p.content_type.clone(),
        raw_html: p.raw_html.clone(),
        cleaned_html: p.cleaned_html.clone(),
        cleaned_tokens: old::PageTokens {
            ops: p.cleaned_tokens.ops.clone(),
            text: p.cleaned_tokens.text.clone(),
        },
        metadata: p.metadata.clone(),
        inputs: p.inputs.iter().map(input).collect(),
    }
}

fn input(i: &FormatInput) -> old::FormatInput {
    old::FormatInput {
        format: i.format.clone(),
        value: i.value.clone(),
    }
}

pub fn file(f: &FileInput) -> old::FileInput {
    old::FileInput {
        name: f.name.clone(),
        content_type: f.content_type.clone(),
        bytes: f.bytes.clone(),
    }
}

pub fn settings(settings: &[Setting]) -> Vec<old::Setting> {
    settings
        .iter()
        .map(|s| old::Setting {
            name: s.name.clone(),
            value: match &s.value {
                SettingValue::Boolean(b) => old::SettingValue::Boolean(*b),
                SettingValue::Integer(n) => old::SettingValue::Integer(*n),
                SettingValue::Number(n) => old::SettingValue::Number(*n),
                SettingValue::Text(t) => old::SettingValue::Text(t.clone()),
            },
        })
        .collect()
}

pub fn info(i: old::PluginInfo) -> PluginInfo {
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
        consumes: i.consumes,
        parser: i.parser.map(parser),
    }
}

fn parser(p: old::ParserSpec) -> ParserSpec {
    ParserSpec {
        name: p.name,
        options: p
            .options
            .into_iter()
            .map(|o| OptionSpec {
                name: o.name,
                kind: match o.kind {
                    old::OptionKind::Boolean => OptionKind::Boolean,
                    old::OptionKind::Integer => OptionKind::Integer,
                    old::OptionKind::Number => OptionKind::Number,
                    old::OptionKind::Text => OptionKind::Text,
                },
                description: o.description,
                minimum: o.minimum,
                maximum: o.maximum,
                choices: o.choices,
            })
            .collect(),
        raw_unless_listed: p.raw_unless_listed,
    }
}

pub fn error(e: old::PluginError) -> PluginError {
    match e {
        old::PluginError::InvalidOptions(m) => PluginError::InvalidOptions(m),
        old::PluginError::UnsupportedInput(m) => PluginError::UnsupportedInput(m),
        old::PluginError::Failed(m) => PluginError::Failed(m),
    }
}

pub fn rendered(r: old::Rendered) -> Rendered {
    Rendered {
        value: FormatValue::Json(r.value),
        warnings: r.warnings,
    }
}

pub fn document(d: old::Document) -> Document {
    Document {
        kind: match d.kind {
            old::DocumentKind::Html => DocumentKind::Html,
            old::DocumentKind::Markdown => DocumentKind::Markdown,
        },
        content: d.content,
        metadata: d.metadata,
        warnings: d.warnings,
        ocr_pages: d
            .ocr_pages
            .into_iter()
            .map(|p| OcrPage {
                page: p.page,
                marker: p.marker,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_0_4_plugin_gets_the_tokens_and_its_value_is_json() {
        let p = Page {
            requested_url: "a".into(),
            final_url: "b".into(),
            status_code: 200,
            content_type: None,
            raw_html: String::new(),
            cleaned_html: "<p>c</p>".into(),
            cleaned_tokens: super::super::v0_5::types::PageTokens {
                ops: vec![1, 1, 1],
                text: "c".into(),
            },
            metadata: "{}".into(),
            inputs: vec![],
        };
        let old = page(&p);
        assert_eq!(old.cleaned_tokens.ops, vec![1, 1, 1]);
        assert_eq!(old.cleaned_tokens.text, "c");
        let r = rendered(old::Rendered {
            value: "\"a\\nb\"".into(),
            warnings: vec!["w".into()],
        });
        assert!(matches!(&r.value, FormatValue::Json(v) if v == "\"a\\nb\""));
        assert_eq!(r.warnings, vec!["w"]);
    }
}
