//! `distill keys create|list|revoke`: the operator's key commands, run
//! against the same data directory (or `--keys-file`) as the server. A
//! running server picks the change up on its next request.

use crate::config::{Config, KeysAction};
use crate::limits::keys::{KeyStore, NewKey};
use serde_json::json;

/// Runs one key command; what it prints goes to stdout.
pub fn run(action: KeysAction, config: &Config) -> anyhow::Result<()> {
    let store = KeyStore::open(&config.limits.keys_file)?;
    match action {
        KeysAction::Create {
            name,
            credits,
            rpm,
            concurrency,
        } => {
            let (key, record) = store.create(&NewKey {
                name,
                credits,
                rpm,
                concurrency,
            })?;
            eprintln!(
                "created {} ({}) in {}; the key is shown once:",
                record.id,
                record.name,
                store.path().display()
            );
            println!("{key}");
        }
        KeysAction::List => {
            for r in &store.current().keys {
                println!(
                    "{}",
                    json!({
                        "id": r.id, "name": r.name, "prefix": r.prefix,
                        "credits": r.credits, "rpm": r.rpm, "concurrency": r.concurrency,
                        "createdAt": crate::timestamp::iso8601_ms(r.created_at),
                        "revoked": r.revoked,
                    })
                );
            }
        }
        KeysAction::Revoke { id } => {
            anyhow::ensure!(store.revoke(&id)?, "no active key with id or name {id:?}");
            eprintln!("revoked {id}");
        }
    }
    Ok(())
}
