//! What ends a page's request early, watched while it is served: JavaScript
//! dialogs are dismissed as they open (they would block the page), and more
//! than [`MAX_DIALOGS`] of them (an alert loop) end the request; a crashed
//! renderer (out of memory, or killed by the pool's memory watchdog) and a
//! Chromium that exited end it at once. [`Hazards::tripped`] resolves with
//! the reason; until then the request goes on.

use chromiumoxide::cdp::browser_protocol::inspector::{EnableParams as InspectorEnable, EventTargetCrashed};
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, DialogType, EventJavascriptDialogOpening,
    HandleJavaScriptDialogParams,
};
use chromiumoxide::page::Page;
use futures::StreamExt;
use tokio::sync::watch;
use tokio::task::JoinHandle;

/// Run before any script of every document: no window can be opened.
const NO_WINDOWS: &str = "Object.defineProperty(window, 'open', { value: function () { return null; }, \
     writable: false, configurable: false });";

/// Dialogs a page may open before its request is ended.
pub const MAX_DIALOGS: usize = 20;

/// Watches one page; its tasks end when it is dropped.
pub struct Hazards {
    reason: watch::Receiver<Option<String>>,
    tasks: Vec<JoinHandle<()>>,
}

impl Hazards {
    /// Starts watching `page`; `exited` turns true when Chromium is gone.
    pub async fn watch(page: &Page, mut exited: watch::Receiver<bool>) -> Result<Hazards, String> {
        let err = |e: chromiumoxide::error::CdpError| e.to_string();
        let mut dialogs = page
            .event_listener::<EventJavascriptDialogOpening>()
            .await
            .map_err(err)?;
        let mut crashes = page.event_listener::<EventTargetCrashed>().await.map_err(err)?;
        page.execute(InspectorEnable::default()).await.map_err(err)?;
        page.execute(AddScriptToEvaluateOnNewDocumentParams::new(NO_WINDOWS))
            .await
            .map_err(err)?;
        let (tx, reason) = watch::channel(None);
        let tx = std::sync::Arc::new(tx);

        let dialog_page = page.clone();
        let trip = tx.clone();
        let on_dialogs = tokio::spawn(async move {
            let mut opened = 0;
            while let Some(dialog) = dialogs.next().await {
                opened += 1;
                // Leaving a page (beforeunload) is allowed; anything else is dismissed.
                let accept = matches!(dialog.r#type, DialogType::Beforeunload);
                let _ = dialog_page
                    .execute(HandleJavaScriptDialogParams::new(accept))
                    .await;
                if opened > MAX_DIALOGS {
                    let _ = trip.send(Some(format!(
                        "the page opened more than {MAX_DIALOGS} JavaScript dialogs (an alert loop); \
                         it was stopped"
                    )));
                    return;
                }
            }
        });
        let trip = tx.clone();
        let on_crash = tokio::spawn(async move {
            if crashes.next().await.is_some() {
                let _ = trip.send(Some(
                    "the page crashed (its renderer ran out of memory or was killed for going over the \
                     browser's memory budget)"
                        .into(),
                ));
            }
        });
        let on_exit = tokio::spawn(async move {
            // A dropped sender means the pool let go of that Chromium: gone too.
            let _ = exited.wait_for(|gone| *gone).await;
            let _ = tx.send(Some(
                "Chromium exited while serving the page (it crashed or was killed); the next \
                 request starts it again"
                    .into(),
            ));
        });
        Ok(Hazards {
            reason,
            tasks: vec![on_dialogs, on_crash, on_exit],
        })
    }

    /// Resolves with the reason once something ended the request.
    pub async fn tripped(&mut self) -> String {
        let reason = match self.reason.wait_for(Option::is_some).await {
            Ok(reason) => reason.clone(),
            Err(_) => None,
        };
        match reason {
            Some(reason) => reason,
            // All watchers ended without a reason: never trips.
            None => std::future::pending().await,
        }
    }
}

impl Drop for Hazards {
    fn drop(&mut self) {
        for task in &self.tasks {
            task.abort();
        }
    }
}
