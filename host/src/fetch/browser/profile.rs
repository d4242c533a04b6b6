//! `profile`: named browser storage kept between scrapes — cookies (all of
//! the page's browser context) and localStorage (per origin) — in
//! `DATA_DIR/profiles`, opened through cap-std so no name reaches outside it
//! (a profile's file is named by the SHA-256 of its name, never by the name).
//!
//! A scrape with a profile loads it into its fresh context before the page
//! loads (cookies through the Storage domain; localStorage by a script that
//! runs before the page's own in the first document of each stored origin).
//! With `saveChanges` (default true) the context's cookies and the final
//! page's localStorage are written back when the page is done; only one
//! saving session per profile at a time ([`ProfileError::InUse`]); reading
//! sessions (`saveChanges: false`) never wait and never write.

use cap_std::ambient_authority;
use cap_std::fs::Dir;
use chromiumoxide::browser::Browser;
use chromiumoxide::cdp::browser_protocol::browser::BrowserContextId;
use chromiumoxide::cdp::browser_protocol::network::CookieParam;
use chromiumoxide::cdp::browser_protocol::page::{
    AddScriptToEvaluateOnNewDocumentParams, RemoveScriptToEvaluateOnNewDocumentParams, ScriptIdentifier,
};
use chromiumoxide::cdp::browser_protocol::storage::{GetCookiesParams, SetCookiesParams};
use chromiumoxide::page::Page;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use sha2::{Digest, Sha256};
use std::collections::{BTreeMap, HashSet};
use std::io::Write;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// The browser and the page's context (cookies are the context's, set and
/// read through the browser's session).
pub type BrowserContext<'a> = (&'a Browser, &'a BrowserContextId);

/// A request's `profile` option.
#[derive(Debug, Clone, PartialEq)]
pub struct ProfileOption {
    pub name: String,
    pub save_changes: bool,
}

impl ProfileOption {
    /// From the validated request value (`{name, saveChanges?}`).
    pub fn from_json(value: &Value) -> Option<ProfileOption> {
        Some(ProfileOption {
            name: value.get("name")?.as_str()?.to_string(),
            save_changes: value.get("saveChanges").and_then(Value::as_bool).unwrap_or(true),
        })
    }
}

/// Why a profile cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum ProfileError {
    #[error("another session that saves changes is using the profile")]
    InUse,
    #[error("the profile store failed: {0}")]
    Store(String),
}

/// What a profile holds.
#[derive(Debug, Default, Clone, Serialize, Deserialize, PartialEq)]
pub struct ProfileState {
    /// Cookies as the Storage domain returns them.
    pub cookies: Vec<Value>,
    /// origin → key → value.
    pub local_storage: BTreeMap<String, BTreeMap<String, String>>,
}

/// The profiles directory and who is saving into it.
pub struct ProfileStore {
    dir: Dir,
    saving: Arc<Mutex<HashSet<String>>>,
}

/// One scrape's use of a profile; a saving session frees the profile when dropped.
pub struct ProfileSession {
    pub option: ProfileOption,
    state: ProfileState,
    file: String,
    saving: Arc<Mutex<HashSet<String>>>,
}

impl Drop for ProfileSession {
    fn drop(&mut self) {
        if self.option.save_changes {
            self.saving.lock().unwrap().remove(&self.option.name);
        }
    }
}

impl ProfileStore {
    /// Opens (creating) `dir`.
    pub fn open(dir: &Path) -> anyhow::Result<ProfileStore> {
        std::fs::create_dir_all(dir)?;
        Ok(ProfileStore {
            dir: Dir::open_ambient_dir(dir, ambient_authority())?,
            saving: Arc::default(),
        })
    }

    /// Starts a session on `option.name`: its stored state (empty when new).
    pub fn begin(&self, option: &ProfileOption) -> Result<ProfileSession, ProfileError> {
        if option.save_changes && !self.saving.lock().unwrap().insert(option.name.clone()) {
            return Err(ProfileError::InUse);
        }
        let file = format!("{}.json", hex::encode(Sha256::digest(option.name.as_bytes())));
        // Built first so that a failed read frees the profile (Drop).
        let mut session = ProfileSession {
            option: option.clone(),
            state: ProfileState::default(),
            file,
            saving: self.saving.clone(),
        };
        session.state = match self.dir.read(&session.file) {
            Ok(bytes) => serde_json::from_slice(&bytes).map_err(|e| ProfileError::Store(e.to_string()))?,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => ProfileState::default(),
            Err(e) => return Err(ProfileError::Store(e.to_string())),
        };
        Ok(session)
    }

    /// Writes `session`'s state (a temporary file renamed over the old one).
    fn write(&self, session: &ProfileSession) -> Result<(), ProfileError> {
        let err = |e: std::io::Error| ProfileError::Store(e.to_string());
        let tmp = format!("{}.tmp", session.file);
        let bytes = serde_json::to_vec(&session.state).map_err(|e| ProfileError::Store(e.to_string()))?;
        let mut f = self.dir.create(&tmp).map_err(err)?;
        f.write_all(&bytes).map_err(err)?;
        f.sync_all().map_err(err)?;
        self.dir.rename(&tmp, &self.dir, &session.file).map_err(err)
    }
}

impl ProfileSession {
    /// Puts the profile into `page`'s context before navigation; returns the
    /// localStorage script to remove once the first document has loaded.
    pub async fn apply(
        &self,
        page: &Page,
        context: BrowserContext<'_>,
    ) -> Result<Option<ScriptIdentifier>, String> {
        let err = |e: chromiumoxide::error::CdpError| e.to_string();
        let cookies: Vec<CookieParam> = self.state.cookies.iter().filter_map(cookie_param).collect();
        if !cookies.is_empty() {
            let mut params = SetCookiesParams::new(cookies);
            params.browser_context_id = Some(context.1.clone());
            context.0.execute(params).await.map_err(err)?;
        }
        if self.state.local_storage.is_empty() {
            return Ok(None);
        }
        let stored = serde_json::to_string(&self.state.local_storage).map_err(|e| e.to_string())?;
        let script = format!(
            "(function (stored) {{ try {{ var items = stored[location.origin]; if (!items) return; \
             for (var k in items) {{ localStorage.setItem(k, items[k]); }} }} catch (e) {{}} }})({stored});"
        );
        let added = page
            .execute(AddScriptToEvaluateOnNewDocumentParams::new(script))
            .await
            .map_err(err)?;
        Ok(Some(added.result.identifier.clone()))
    }

    /// Stops restoring localStorage in later documents of the session.
    pub async fn applied(page: &Page, script: Option<ScriptIdentifier>) {
        if let Some(id) = script {
            let _ = page
                .execute(RemoveScriptToEvaluateOnNewDocumentParams::new(id))
                .await;
        }
    }

    /// With `saveChanges`, reads the context's cookies and the page's
    /// localStorage back and writes the profile.
    pub async fn save(
        &mut self,
        store: &ProfileStore,
        page: &Page,
        context: BrowserContext<'_>,
    ) -> Result<(), String> {
        if !self.option.save_changes {
            return Ok(());
        }
        let params = GetCookiesParams {
            browser_context_id: Some(context.1.clone()),
        };
        let cookies = context.0.execute(params).await.map_err(|e| e.to_string())?;
        self.state.cookies = cookies
            .result
            .cookies
            .iter()
            .filter_map(|c| serde_json::to_value(c).ok())
            .collect();
        let probe = "(() => { try { const items = {}; for (let i = 0; i < localStorage.length; i++) { \
                     const k = localStorage.key(i); items[k] = localStorage.getItem(k); } \
                     return [location.origin, items]; } catch (e) { return null; } })()";
        if let Ok((_, Value::Array(pair))) = super::settle::evaluate(page, probe).await
            && let [Value::String(origin), Value::Object(items)] = pair.as_slice()
            && origin.starts_with("http")
        {
            let items = items
                .iter()
                .filter_map(|(k, v)| Some((k.clone(), v.as_str()?.to_string())))
                .collect();
            self.state.local_storage.insert(origin.clone(), items);
        }
        store.write(self).map_err(|e| e.to_string())
    }
}

/// A stored cookie (Storage.getCookies' shape) as Storage.setCookies wants it.
fn cookie_param(stored: &Value) -> Option<CookieParam> {
    let mut c = stored.as_object()?.clone();
    // Session cookies have expires -1; setCookies wants it absent.
    if c.get("expires").and_then(Value::as_f64).is_some_and(|e| e <= 0.0) {
        c.remove("expires");
    }
    for derived in ["size", "session", "sourceScheme", "sourcePort", "priority"] {
        c.remove(derived);
    }
    serde_json::from_value(Value::Object(c)).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A store in a fresh directory, removed with the directory.
    fn store() -> (crate::test_dir::TestDir, ProfileStore) {
        let dir = crate::test_dir::TestDir::new("profiles");
        let store = ProfileStore::open(dir.path()).unwrap();
        (dir, store)
    }

    fn option(name: &str, save: bool) -> ProfileOption {
        ProfileOption {
            name: name.into(),
            save_changes: save,
        }
    }

    #[test]
    fn one_saving_session_at_a_time_readers_never_wait() {
        let (_dir, store) = store();
        let first = store.begin(&option("a", true)).unwrap();
        assert!(matches!(
            store.begin(&option("a", true)),
            Err(ProfileError::InUse)
        ));
        let reader = store.begin(&option("a", false)).unwrap();
        let other = store.begin(&option("b", true)).unwrap();
        drop(first);
        store.begin(&option("a", true)).unwrap();
        drop((reader, other));
    }

    #[test]
    fn names_never_reach_the_file_system() {
        let (_dir, store) = store();
        let mut s = store.begin(&option("../../etc/passwd", true)).unwrap();
        s.state
            .local_storage
            .insert("https://a.b".into(), BTreeMap::from([("k".into(), "v".into())]));
        store.write(&s).unwrap();
        drop(s);
        let again = store.begin(&option("../../etc/passwd", false)).unwrap();
        assert_eq!(again.state.local_storage["https://a.b"]["k"], "v");
        assert_eq!(again.file.len(), 64 + 5);
    }

    #[test]
    fn stored_cookies_become_cookie_params() {
        let stored = serde_json::json!({"name": "seen", "value": "1", "domain": "127.0.0.1", "path": "/",
            "expires": -1, "size": 5, "httpOnly": false, "secure": false, "session": true,
            "priority": "Medium", "sameParty": false, "sourceScheme": "NonSecure", "sourcePort": 8080});
        let p = cookie_param(&stored).unwrap();
        assert_eq!((p.name.as_str(), p.value.as_str()), ("seen", "1"));
        assert!(p.expires.is_none());
    }

    #[test]
    fn the_option_defaults_to_saving() {
        let o = ProfileOption::from_json(&serde_json::json!({"name": "x"})).unwrap();
        assert!(o.save_changes);
    }
}
