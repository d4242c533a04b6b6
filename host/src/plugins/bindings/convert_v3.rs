//! Conversions between the current ABI's types and 0.3.0's, which differ
//! in `page.cleaned-tokens` (0.4.0) and `rendered.value` (0.5.0): an 0.3
//! plugin gets the page without tokens and its value is JSON text;
//! everything else is copied field by field.

use super::v0_3::types as old;
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
        metadata: p.metadata.clone(),
        inputs: p.inputs.iter().map(input).collect(),
    }
}

super::convert_unchanged::unchanged_conversions!();

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_0_3_plugin_gets_the_page_without_tokens_and_its_info_whole() {
        let p = Page {
            requested_url: "a".into(),
            final_url: "b".into(),
            status_code: 200,
            content_type: None,
            raw_html: "<p>r</p>".into(),
            cleaned_html: "<p>c</p>".into(),
            cleaned_tokens: super::super::v0_5::types::PageTokens {
                ops: vec![1],
                text: String::new(),
            },
            metadata: "{}".into(),
            inputs: vec![FormatInput {
                format: "links".into(),
                value: "[]".into(),
            }],
        };
        let old = page(&p);
        assert_eq!(old.cleaned_html, "<p>c</p>");
        assert_eq!(old.inputs[0].format, "links");
        let info = info(old::PluginInfo {
            name: "n".into(),
            version: "1".into(),
            description: String::new(),
            formats: vec![],
            extensions: vec!["pdf".into()],
            content_types: vec![],
            capabilities: vec![],
            memory_limit_mib: None,
            timeout_ms: None,
            consumes: vec!["page:cleaned-html".into()],
            parser: Some(old::ParserSpec {
                name: "pdf".into(),
                options: vec![old::OptionSpec {
                    name: "maxPages".into(),
                    kind: old::OptionKind::Integer,
                    description: String::new(),
                    minimum: Some(1),
                    maximum: None,
                    choices: vec![],
                }],
                raw_unless_listed: true,
            }),
        });
        assert_eq!(info.consumes, vec!["page:cleaned-html"]);
        let parser = info.parser.unwrap();
        assert_eq!(parser.options[0].kind, OptionKind::Integer);
        assert!(parser.raw_unless_listed);
    }
}
