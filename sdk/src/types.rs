//! The data types plugins exchange with the host, with small conveniences on top
//! of the generated WIT records.

use crate::bindings::format::distill::plugin::types;

pub use types::{
    Document, DocumentKind, FileInput, FormatInput, FormatValue, OcrPage, OptionKind, OptionSpec, Page,
    PageTokens, ParserSpec, PluginError, PluginInfo, Rendered, Setting, SettingValue,
};

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
            consumes: Vec::new(),
            parser: None,
        }
    }

    /// Declares that this format reads `format`'s value (e.g. "markdown",
    /// "links", "images", or another plugin's format); the host renders it
    /// first and passes it in [`Page::input`].
    pub fn consumes(mut self, format: &str) -> Self {
        self.consumes.push(format.to_string());
        self
    }

    /// Declares a part of [`Page`] this format reads. A plugin that declares
    /// none receives every part (the safe default); one that declares some
    /// may find the others empty: the host then skips copying the page's raw
    /// HTML into the call, its largest string, when the plugin does not read
    /// it. `raw_html` of a body that is not HTML (JSON, plain text) is always
    /// passed, as such a body has no cleaned form. Sent as a `consumes` entry
    /// `page:raw-html` / `page:cleaned-html`, which older hosts ignore.
    pub fn reads(mut self, part: PagePart) -> Self {
        self.consumes.push(part.consumes_entry().to_string());
        self
    }

    /// Declares the `parsers` entry that configures this converter.
    pub fn parser(mut self, parser: ParserSpec) -> Self {
        self.parser = Some(parser);
        self
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

/// A part of [`Page`] a format plugin can declare it reads ([`PluginInfo::reads`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PagePart {
    /// `raw_html`: the page as received.
    RawHtml,
    /// `cleaned_html`: the page after the host's cleaning.
    CleanedHtml,
    /// `cleaned_tokens`: the cleaned page pre-tokenised ([`Page::tokens`]).
    /// Never sent unless declared; a plugin that declares it without
    /// [`PagePart::CleanedHtml`] may find `cleaned_html` empty when the
    /// tokens are there (ABI 0.4; older hosts send no tokens, only HTML).
    CleanedTokens,
}

impl PagePart {
    /// The `consumes` entry that declares this part.
    pub fn consumes_entry(self) -> &'static str {
        match self {
            PagePart::RawHtml => "page:raw-html",
            PagePart::CleanedHtml => "page:cleaned-html",
            PagePart::CleanedTokens => "page:cleaned-tokens",
        }
    }
}

impl Page {
    /// The cleaned page's tokens, when the host sent them (the plugin
    /// declared [`PagePart::CleanedTokens`], the host knows ABI 0.4 and the
    /// body is HTML); otherwise read `cleaned_html`.
    pub fn tokens(&self) -> Option<crate::tokens::Tokens<'_>> {
        let t = &self.cleaned_tokens;
        (!t.ops.is_empty()).then(|| crate::tokens::Tokens::new(&t.ops, &t.text))
    }

    /// The page's metadata as a JSON value (an object; `Null` if the host sent none).
    pub fn metadata_value(&self) -> serde_json::Value {
        serde_json::from_str(&self.metadata).unwrap_or(serde_json::Value::Null)
    }

    /// The value of a consumed format (declared with [`PluginInfo::consumes`]),
    /// if the host could make it for this page.
    pub fn input(&self, format: &str) -> Option<serde_json::Value> {
        let input = self.inputs.iter().find(|i| i.format == format)?;
        serde_json::from_str(&input.value).ok()
    }

    /// The page's markdown, when this plugin consumes "markdown".
    pub fn markdown(&self) -> Option<String> {
        match self.input("markdown")? {
            serde_json::Value::String(s) => Some(s),
            _ => None,
        }
    }
}

impl PluginError {
    /// The input cannot be handled (corrupt, encrypted, wrong type, too large):
    /// HTTP 400 for uploads, 500 for scrapes.
    pub fn unsupported(why: impl Into<String>) -> Self {
        PluginError::UnsupportedInput(why.into())
    }

    /// The options are not acceptable: HTTP 400.
    pub fn invalid_options(why: impl Into<String>) -> Self {
        PluginError::InvalidOptions(why.into())
    }

    /// Anything else: HTTP 500.
    pub fn failed(why: impl Into<String>) -> Self {
        PluginError::Failed(why.into())
    }
}

impl ParserSpec {
    /// A `parsers` entry type with no options yet; chain [`ParserSpec::option`].
    pub fn new(name: &str) -> Self {
        ParserSpec {
            name: name.to_string(),
            options: Vec::new(),
            raw_unless_listed: false,
        }
    }

    /// Adds an option the entry may carry.
    pub fn option(mut self, option: OptionSpec) -> Self {
        self.options.push(option);
        self
    }

    /// Upstream's rule for PDFs: when a request's `parsers` has no entry of
    /// this type, the host returns the file base64-encoded instead of converting.
    pub fn raw_unless_listed(mut self) -> Self {
        self.raw_unless_listed = true;
        self
    }
}

impl OptionSpec {
    fn new(name: &str, kind: OptionKind, description: &str) -> Self {
        OptionSpec {
            name: name.to_string(),
            kind,
            description: description.to_string(),
            minimum: None,
            maximum: None,
            choices: Vec::new(),
        }
    }

    /// A true/false option.
    pub fn boolean(name: &str, description: &str) -> Self {
        Self::new(name, OptionKind::Boolean, description)
    }

    /// A whole-number option from `min` to `max` inclusive.
    pub fn integer(name: &str, description: &str, min: i64, max: i64) -> Self {
        OptionSpec {
            minimum: Some(min),
            maximum: Some(max),
            ..Self::new(name, OptionKind::Integer, description)
        }
    }

    /// A number option.
    pub fn number(name: &str, description: &str) -> Self {
        Self::new(name, OptionKind::Number, description)
    }

    /// A text option; `choices` lists the allowed values (empty: any text).
    pub fn text(name: &str, description: &str, choices: &[&str]) -> Self {
        OptionSpec {
            choices: choices.iter().map(|c| c.to_string()).collect(),
            ..Self::new(name, OptionKind::Text, description)
        }
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
            ocr_pages: Vec::new(),
        }
    }

    /// A markdown document, used as the markdown output as is.
    pub fn markdown(content: impl Into<String>) -> Self {
        Document {
            kind: DocumentKind::Markdown,
            content: content.into(),
            metadata: "{}".to_string(),
            warnings: Vec::new(),
            ocr_pages: Vec::new(),
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

    /// Hands page `page` (1-based) to the host's OCR: its text replaces
    /// `marker` in the content (or is appended when the marker is absent).
    pub fn with_ocr_page(mut self, page: u32, marker: impl Into<String>) -> Self {
        self.ocr_pages.push(OcrPage {
            page,
            marker: marker.into(),
        });
        self
    }
}
