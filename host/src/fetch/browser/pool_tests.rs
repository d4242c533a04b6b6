//! Tests of the browser pool (`pool.rs`): a missing binary's error, and with
//! Debian's chromium a killed browser relaunched, shutdown leaving none, and
//! a restart when over the memory budget.

use super::*;

fn settings(executable: &str) -> PoolSettings {
    PoolSettings {
        executable: PathBuf::from(executable),
        profiles_dir: std::env::temp_dir().join(format!("distill-pool-{}", uuid::Uuid::new_v4().simple())),
        max_pages: 2,
        memory_budget: 0,
        kill_renderer_over: 0,
        js_heap_mib: 256,
        extra_args: Vec::new(),
        spare_idle: Duration::ZERO,
        spare_pages: 0,
        spare_ahead: Ahead::Never,
    }
}

#[tokio::test]
async fn a_missing_binary_is_a_clear_error_naming_the_setting() {
    let pool = BrowserPool::new(settings("/nonexistent/chromium"));
    let err = pool.open_page().await.err().unwrap().to_string();
    super::super::profile_dirs::remove_profiles_dir(&pool.settings.profiles_dir);
    assert!(
        err.contains("DISTILL_CHROMIUM") && err.contains("/nonexistent/chromium"),
        "{err}"
    );
}

/// Needs Debian's chromium (`make setup`).
#[tokio::test]
async fn a_killed_chromium_is_relaunched_and_shutdown_leaves_none() {
    let pool = BrowserPool::new(settings("/usr/bin/chromium"));
    let lease = pool.open_page().await.unwrap();
    let first = pool.pid().await.unwrap();
    let first_singleton = singleton_of_running(&pool).await;
    lease.close().await;
    unsafe { libc::kill(first as i32, libc::SIGKILL) };
    tokio::time::sleep(Duration::from_millis(300)).await;
    let lease = pool.open_page().await.unwrap();
    let second = pool.pid().await.unwrap();
    assert_ne!(first, second);
    let second_singleton = singleton_of_running(&pool).await;
    lease.page.goto("data:text/html,<p>ok</p>").await.unwrap();
    assert!(lease.page.content().await.unwrap().contains("<p>ok</p>"));
    lease.close().await;
    pool.shutdown().await;
    tokio::time::sleep(Duration::from_millis(500)).await;
    let alive = unsafe { libc::kill(second as i32, 0) } == 0;
    let zombie = std::fs::read_to_string(format!("/proc/{second}/stat"))
        .map(|s| s.contains(") Z "))
        .unwrap_or(true);
    assert!(!alive || zombie, "Chromium {second} outlived the pool");
    // Neither the killed Chromium nor the shut-down one left its singleton
    // directory in the temp dir.
    assert!(
        !first_singleton.exists(),
        "{} left behind",
        first_singleton.display()
    );
    assert!(
        !second_singleton.exists(),
        "{} left behind",
        second_singleton.display()
    );
    super::super::profile_dirs::remove_profiles_dir(&pool.settings.profiles_dir);
}

/// The directory Chromium made for the running browser's singleton socket.
async fn singleton_of_running(pool: &BrowserPool) -> PathBuf {
    let running = pool.running.lock().await;
    let profile = &running.as_ref().expect("a Chromium runs").profile;
    let dir = super::super::profile_dirs::singleton_dir(profile)
        .expect("Chromium links SingletonSocket from its profile");
    assert!(dir.is_dir(), "{}", dir.display());
    dir
}

/// Needs Debian's chromium (`make setup`).
#[tokio::test]
async fn over_its_budget_chromium_is_restarted_between_pages() {
    let mut s = settings("/usr/bin/chromium");
    s.memory_budget = 1;
    let pool = BrowserPool::new(s);
    let lease = pool.open_page().await.unwrap();
    let first = pool.pid().await.unwrap();
    // Measured while a page is open: kept (a page is in use).
    tokio::time::sleep(WATCH_EVERY * 3).await;
    assert!(pool.memory() > 10 << 20, "{}", pool.memory());
    assert_eq!(pool.pid().await, Some(first));
    lease.close().await;
    let lease = pool.open_page().await.unwrap();
    let second = pool.pid().await.unwrap();
    assert_ne!(first, second, "not restarted though over its budget and idle");
    lease.page.goto("data:text/html,<p>ok</p>").await.unwrap();
    lease.close().await;
    pool.shutdown().await;
    super::super::profile_dirs::remove_profiles_dir(&pool.settings.profiles_dir);
}
