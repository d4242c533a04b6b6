//! The current ABI's `render` call without the per-call type check. The
//! generated bindings look up and type-check every export of the interface
//! (`info` and `render`, records of a dozen fields) each time they load a new
//! instance, ~3,400 instructions of a scrape's markdown call, though a
//! component's export types are the same for every instance of it. Here
//! `render`'s export index is found once per pre-instantiated component and
//! its type checked at its first call; later calls take the checked function
//! as the bindings' own call does ([`TypedFunc::new_unchecked`]).

use super::v0_5::format::FormatPre as BindgenPre;
use super::v0_5::types::{Page, PluginError, Rendered};
use crate::plugins::sandbox::CallState;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use wasmtime::Store;
use wasmtime::component::{ComponentExportIndex, Instance, TypedFunc};
use wasmtime::error::Context;

/// `render`'s signature, as the generated bindings call it.
type RenderFn<'a> = TypedFunc<(&'a str, &'a Page, &'a str), (Result<Rendered, PluginError>,)>;

/// A pre-instantiated 0.5 format plugin and where its `render` is.
#[derive(Clone)]
pub struct FormatV5 {
    pre: BindgenPre<CallState>,
    render: ComponentExportIndex,
    /// Set once `render` has passed the type check on an instance of this
    /// component (shared by the clones of this value).
    checked: Arc<AtomicBool>,
}

impl FormatV5 {
    /// Wraps the bindings' pre-instantiated component; fails as they do when
    /// the component does not export `render`.
    pub fn new(pre: BindgenPre<CallState>, interface: &str) -> wasmtime::Result<FormatV5> {
        let component = pre.instance_pre().component();
        let instance = component
            .get_export_index(None, interface)
            .with_context(|| format!("no exported instance named `{interface}`"))?;
        let render = component
            .get_export_index(Some(&instance), "render")
            .with_context(|| format!("instance export `{interface}` does not have export `render`"))?;
        Ok(FormatV5 {
            pre,
            render,
            checked: Arc::new(AtomicBool::new(false)),
        })
    }

    /// The bindings' pre-instantiated component (for `info`).
    pub fn bindings(&self) -> &BindgenPre<CallState> {
        &self.pre
    }

    /// Instantiates and renders `format` for `page`; `options` is JSON text.
    pub async fn render(
        &self,
        store: &mut Store<CallState>,
        format: &str,
        page: &Page,
        options: &str,
    ) -> wasmtime::Result<Result<Rendered, PluginError>> {
        let instance = self.pre.instance_pre().instantiate_async(&mut *store).await?;
        let render = self.render_fn(store, &instance)?;
        let (out,) = render.call_async(&mut *store, (format, page, options)).await?;
        Ok(out)
    }

    /// `render` of `instance`, type-checked at the first call only.
    fn render_fn<'a>(
        &self,
        store: &mut Store<CallState>,
        instance: &Instance,
    ) -> wasmtime::Result<RenderFn<'a>> {
        if !self.checked.load(Ordering::Acquire) {
            let render = instance.get_typed_func(&mut *store, self.render)?;
            self.checked.store(true, Ordering::Release);
            return Ok(render);
        }
        let func = instance
            .get_func(&mut *store, self.render)
            .context("failed to find function export `render`")?;
        // SAFETY: `func` is `render` of an instance of the component whose
        // `render` passed `get_typed_func`'s check for this very signature
        // above (`checked`); the types of a component's exports do not vary
        // between its instances (no resource types in `render`'s signature).
        Ok(unsafe { RenderFn::new_unchecked(func) })
    }
}
