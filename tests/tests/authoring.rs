//! Plugin authoring end to end: `make new-plugin` creates crates that build to
//! components the server loads and calls, and a plugin written in Python
//! (componentize-py, built by `make`) serves the same ABI as Rust ones.

use distill_e2e::{Plugins, ServerOptions, TestServer, example_plugins_dir, fresh_tmp_dir, scrape, site};
use serde_json::json;
use std::path::{Path, PathBuf};
use std::process::Command;

fn repo() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .unwrap()
        .to_path_buf()
}

fn run(cmd: &mut Command) -> String {
    let out = cmd.output().expect("running a command");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(out.status.success(), "{cmd:?} failed:\n{text}");
    text
}

#[tokio::test]
async fn new_plugin_template_builds_and_loads_for_both_kinds() {
    let work = fresh_tmp_dir();
    let plugins = work.join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    // Reused between runs (under target/), so only the first run compiles deps.
    let target_dir = repo().join("target/template-build");
    for (name, kind) in [("word-count", "format"), ("notes", "converter")] {
        let dir = work.join(name);
        let out = run(Command::new("make")
            .current_dir(repo())
            .arg("-s")
            .arg("new-plugin")
            .arg(format!("NAME={name}"))
            .arg(format!("KIND={kind}"))
            .arg(format!("DIR={}", dir.display())));
        assert!(out.contains(&format!("created {kind} plugin '{name}'")), "{out}");
        run(Command::new("cargo")
            .current_dir(&dir)
            .args(["test", "--release", "--target-dir"])
            .arg(&target_dir));
        run(Command::new("cargo")
            .current_dir(&dir)
            .args(["build", "--release", "--target", "wasm32-wasip2", "--target-dir"])
            .arg(&target_dir));
        let crate_file = format!("distill_{}.wasm", name.replace('-', "_"));
        std::fs::copy(
            target_dir.join("wasm32-wasip2/release").join(crate_file),
            plugins.join(format!("{name}.wasm")),
        )
        .unwrap();
    }
    // Bad names are refused before anything is written.
    let bad = Command::new("make")
        .current_dir(repo())
        .args(["-s", "new-plugin", "NAME=Bad Name", "KIND=format"])
        .arg(format!("DIR={}", work.join("bad").display()))
        .output()
        .unwrap();
    assert!(!bad.status.success() && !work.join("bad").exists());

    let server = TestServer::start(ServerOptions {
        plugins: Plugins::Dir(plugins),
        ..ServerOptions::default()
    });
    let logs = server.logs();
    assert!(
        logs.contains("plugin=word-count") && logs.contains("plugin=notes"),
        "{logs}"
    );
    assert!(
        logs.contains("extensions=[\"notes\"]"),
        "the converter's manifest: {logs}"
    );
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": ["word-count"] }),
    )
    .await;
    r.assert_ok();
    assert!(
        r.data()["word-count"]["cleanedHtmlBytes"].as_u64().unwrap() > 100,
        "{}",
        r.pretty()
    );
}

#[tokio::test]
async fn a_plugin_written_in_python_is_served() {
    let wasm = example_plugins_dir().join("keywords.wasm");
    assert!(
        wasm.exists(),
        "{} is missing: `make build` builds it with componentize-py",
        wasm.display()
    );
    let plugins = fresh_tmp_dir().join("plugins");
    std::fs::create_dir_all(&plugins).unwrap();
    std::fs::copy(&wasm, plugins.join("keywords.wasm")).unwrap();
    let server = TestServer::start(ServerOptions {
        plugins: Plugins::Dir(plugins),
        ..ServerOptions::default()
    });
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": [{ "type": "keywords", "top": 3 }] }),
    )
    .await;
    r.assert_ok();
    let kw = &r.data()["keywords"];
    let list = kw["keywords"].as_array().unwrap();
    assert_eq!(list.len(), 3, "{kw}");
    assert!(
        list.iter()
            .all(|k| k["word"].as_str().is_some_and(|w| w.len() >= 3) && k["count"].as_u64() >= Some(1))
    );
    assert!(list[0]["count"].as_u64() >= list[2]["count"].as_u64());
    assert!(kw["words"].as_u64().unwrap() > 20, "{kw}");
    // The Python plugin validates its options like any other.
    let r = scrape(
        server.url(),
        &json!({ "url": site().url("/article.html"), "formats": [{ "type": "keywords", "top": 0 }] }),
    )
    .await;
    r.assert_error(400, "BAD_REQUEST");
    assert!(r.error().contains("'top' must be an integer"), "{}", r.pretty());
}
