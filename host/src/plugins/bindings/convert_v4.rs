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

super::convert_unchanged::unchanged_conversions!();

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
