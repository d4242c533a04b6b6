//! What the conversions of the 0.3 and 0.4 ABIs share: every type but the
//! page (which each version shapes its own way) is copied field by field, and
//! a rendered value is JSON text. Written once as a macro because each
//! version's bindings are distinct Rust types; a module invokes it after
//! `use super::v0_N::types as old;` and the current types it names.

/// Defines `input`, `file`, `settings`, `info`, `parser`, `error`,
/// `rendered` and `document` between `old::*` (the invoking module's import)
/// and the current ABI's types.
macro_rules! unchanged_conversions {
    () => {
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
    };
}

pub(super) use unchanged_conversions;
