//! Runs the format plugins a request asks for. A plugin may consume other
//! formats (ABI 0.3 `consumes`): those are rendered first — with default
//! options unless the request asks for them too — and handed over in
//! `page.inputs`, together with host-made values (`links`, `images`, `html`,
//! `rawHtml`, a converter's final `markdown`). Formats run in waves: each wave
//! holds every format whose inputs are ready, its calls run concurrently, each
//! in its own fresh instance; a plugin gets only the parts of the page it
//! reads (`plugins::page_parts`: raw HTML, cleaned HTML, cleaned tokens). With `redactPII` each value
//! is redacted as it is rendered, before any consumer sees it.

use super::error::PipelineError;
use crate::api::FormatRequest;
use crate::plugins::bindings::{FormatInput, Page, PageTokens};
use crate::plugins::{PluginRuntime, Registry};
use futures_util::future::join_all;
use serde_json::Value;
use std::collections::{BTreeSet, HashMap};
use std::time::Instant;

/// The formats to render, in waves.
#[derive(Debug, PartialEq)]
pub struct RenderPlan {
    /// Each wave's formats, with the options to render them with.
    pub waves: Vec<Vec<(String, String)>>,
    /// Formats the host makes that some plugin consumes.
    pub host_inputs: BTreeSet<String>,
}

/// Plans the requested plugin `formats`. `consumes_of(name)` is `Some(list)`
/// for a plugin-served format, `None` otherwise (the host makes it, or nobody).
pub fn plan(
    formats: &[FormatRequest],
    consumes_of: &dyn Fn(&str) -> Option<Vec<String>>,
) -> Result<RenderPlan, PipelineError> {
    // Every plugin format needed, with its options ("{}" when only consumed).
    let mut needed: Vec<(String, String, Vec<String>)> = Vec::new();
    let mut host_inputs = BTreeSet::new();
    // (name, options, reached through a `consumes` edge)
    let mut queue: Vec<(String, String, bool)> = formats
        .iter()
        .map(|f| {
            (
                f.name.clone(),
                serde_json::to_string(&f.options).unwrap_or_default(),
                false,
            )
        })
        .collect();
    queue.reverse();
    while let Some((name, options, consumed)) = queue.pop() {
        if needed.iter().any(|(n, _, _)| *n == name) {
            continue;
        }
        let Some(consumes) = consumes_of(&name) else {
            if consumed {
                host_inputs.insert(name);
            }
            continue;
        };
        for dep in consumes.iter().rev() {
            let requested = formats.iter().find(|f| &f.name == dep);
            let options = requested.map(|f| serde_json::to_string(&f.options).unwrap_or_default());
            queue.push((dep.clone(), options.unwrap_or_else(|| "{}".to_string()), true));
        }
        needed.push((name, options, consumes));
    }
    let mut done: BTreeSet<String> = BTreeSet::new();
    let mut waves = Vec::new();
    while done.len() < needed.len() {
        let wave: Vec<(String, String)> = needed
            .iter()
            .filter(|(name, _, consumes)| {
                !done.contains(name)
                    && consumes
                        .iter()
                        .all(|d| done.contains(d) || !needed.iter().any(|(n, _, _)| n == d))
            })
            .map(|(name, options, _)| (name.clone(), options.clone()))
            .collect();
        if wave.is_empty() {
            let formats = needed
                .iter()
                .map(|(n, _, _)| n)
                .filter(|n| !done.contains(*n))
                .cloned()
                .collect();
            return Err(PipelineError::FormatCycle { formats });
        }
        done.extend(wave.iter().map(|(n, _)| n.clone()));
        waves.push(wave);
    }
    Ok(RenderPlan { waves, host_inputs })
}

/// What rendering produced: the requested formats' values in request order,
/// and the warnings the plugins reported.
#[derive(Debug, Default)]
pub struct RenderOutput {
    pub values: Vec<(String, Value)>,
    pub warnings: Vec<String>,
}

/// Renders the plan. `host_values` holds what the host made (JSON values by
/// name); `body_is_html` says whether the page's body is HTML (a plugin that
/// does not read `raw-html` is then handed none); `llm_denied` says why
/// plugins may not use the model, if so.
/// `redact` is the request's `redactPII`, applied to every value.
#[allow(clippy::too_many_arguments)]
pub async fn render_plugin_formats(
    runtime: &PluginRuntime,
    registry: &Registry,
    plan: &RenderPlan,
    formats: &[FormatRequest],
    page: &Page,
    host_values: &HashMap<String, Value>,
    body_is_html: bool,
    request_id: &str,
    deadline: Instant,
    timeout_ms: u64,
    llm_denied: Option<&str>,
    redact: Option<&distill_redact::RedactOptions>,
) -> Result<RenderOutput, PipelineError> {
    let mut values: HashMap<String, Value> = HashMap::new();
    let mut warnings = Vec::new();
    for wave in &plan.waves {
        let calls = wave.iter().filter_map(|(name, options)| {
            let plugin = registry.format(name)?.clone();
            let inputs: Vec<FormatInput> = plugin
                .manifest
                .consumes
                .iter()
                .filter_map(|c| values.get(c).or_else(|| host_values.get(c)).map(|v| (c, v)))
                .map(|(c, v)| FormatInput {
                    format: c.clone(),
                    value: v.to_string(),
                })
                .collect();
            let reads = &plugin.manifest.reads;
            let withhold = Withhold {
                raw: !page.raw_html.is_empty() && !reads.gets_raw_html(body_is_html),
                cleaned_html: !page.cleaned_html.is_empty() && !reads.gets_cleaned_html(body_is_html),
                tokens: !page.cleaned_tokens.ops.is_empty() && !reads.gets_tokens(body_is_html),
            };
            Some(async move {
                let own;
                let page = if inputs.is_empty() && !withhold.any() {
                    page
                } else {
                    own = page_for_call(page, inputs, withhold);
                    &own
                };
                let out = runtime
                    .render_with(&plugin, name, page, options, request_id, deadline, llm_denied)
                    .await
                    .map_err(|error| PipelineError::Format {
                        format: name.clone(),
                        error,
                        timeout_ms,
                    })?;
                // A `text` value (ABI 0.5) is taken as it is, JSON text parsed.
                let value = out.value.into_value().map_err(|e| PipelineError::FormatOutput {
                    plugin: plugin.manifest.name.clone(),
                    format: name.clone(),
                    message: e.to_string(),
                })?;
                let value = super::redact::value(value, redact);
                Ok::<_, PipelineError>((name.clone(), value, out.warnings))
            })
        });
        for result in join_all(calls).await {
            let (name, value, said) = result?;
            // Warnings of formats the request asked for; a consumed-only
            // format's problems show up in its consumer's result.
            if formats.iter().any(|f| f.name == name) {
                warnings.extend(said);
            }
            values.insert(name, value);
        }
    }
    let values = formats
        .iter()
        .filter_map(|f| values.remove(&f.name).map(|v| (f.name.clone(), v)))
        .collect();
    Ok(RenderOutput { values, warnings })
}

/// The parts of the page a call leaves out (the plugin does not read them).
#[derive(Clone, Copy)]
struct Withhold {
    raw: bool,
    cleaned_html: bool,
    tokens: bool,
}

impl Withhold {
    fn any(&self) -> bool {
        self.raw || self.cleaned_html || self.tokens
    }
}

/// A call's own copy of `page`: with its consumed `inputs`, and without the
/// parts the plugin does not read (never copied then).
fn page_for_call(page: &Page, inputs: Vec<FormatInput>, withhold: Withhold) -> Page {
    let keep = |s: &String, withheld: bool| if withheld { String::new() } else { s.clone() };
    Page {
        requested_url: page.requested_url.clone(),
        final_url: page.final_url.clone(),
        status_code: page.status_code,
        content_type: page.content_type.clone(),
        raw_html: keep(&page.raw_html, withhold.raw),
        cleaned_html: keep(&page.cleaned_html, withhold.cleaned_html),
        cleaned_tokens: if withhold.tokens {
            PageTokens {
                ops: Vec::new(),
                text: String::new(),
            }
        } else {
            page.cleaned_tokens.clone()
        },
        metadata: page.metadata.clone(),
        inputs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(names: &[&str]) -> Vec<FormatRequest> {
        names
            .iter()
            .map(|n| FormatRequest {
                name: n.to_string(),
                options: Default::default(),
            })
            .collect()
    }

    fn plugins(name: &str) -> Option<Vec<String>> {
        let list: &[&str] = match name {
            "markdown" => &[],
            "summary" => &["markdown"],
            "digest" => &["summary", "links"],
            "a" => &["b"],
            "b" => &["a"],
            _ => return None,
        };
        Some(list.iter().map(|s| s.to_string()).collect())
    }

    fn names(plan: &RenderPlan) -> Vec<Vec<&str>> {
        plan.waves
            .iter()
            .map(|w| w.iter().map(|(n, _)| n.as_str()).collect())
            .collect()
    }

    #[test]
    fn independent_formats_share_one_wave() {
        let p = plan(&req(&["markdown", "html", "links"]), &plugins).unwrap();
        assert_eq!(names(&p), vec![vec!["markdown"]]);
        assert!(p.host_inputs.is_empty(), "requested host formats are not inputs");
    }

    #[test]
    fn consumed_formats_render_first_even_when_not_requested() {
        let p = plan(&req(&["digest"]), &plugins).unwrap();
        assert_eq!(names(&p), vec![vec!["markdown"], vec!["summary"], vec!["digest"]]);
        assert_eq!(p.host_inputs.iter().collect::<Vec<_>>(), vec!["links"]);
        assert_eq!(
            p.waves[0][0].1, "{}",
            "an unrequested dependency gets default options"
        );
    }

    #[test]
    fn a_requested_host_format_is_also_handed_to_its_consumers() {
        let p = plan(&req(&["links", "digest"]), &plugins).unwrap();
        assert!(p.host_inputs.contains("links"), "{p:?}");
    }

    #[test]
    fn a_requested_dependency_keeps_its_options() {
        let mut formats = req(&["summary", "markdown"]);
        formats[1].options.insert("x".into(), Value::Bool(true));
        let p = plan(&formats, &plugins).unwrap();
        assert_eq!(
            p.waves,
            vec![
                vec![("markdown".into(), r#"{"x":true}"#.into())],
                vec![("summary".into(), "{}".into())]
            ]
        );
    }

    #[test]
    fn circles_are_refused() {
        let err = plan(&req(&["a"]), &plugins).unwrap_err();
        assert!(matches!(err, PipelineError::FormatCycle { formats } if formats.len() == 2));
    }
}
