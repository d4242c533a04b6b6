//! Removing a Chromium's user-data directory together with what that Chromium
//! left outside it. Chromium keeps its single-instance socket in a directory
//! of its own under the system temp dir (`org.chromium.Chromium.XXXXXX`) and
//! links it from the profile as `SingletonSocket`; it removes both on a clean
//! exit, but the pool kills it, so without this every launch (and every
//! relaunch after a crash) left one such directory behind in `/tmp`.

use std::path::{Path, PathBuf};

/// The directory Chromium made for `profile`'s singleton socket, when the
/// profile's `SingletonSocket` link points into one.
pub(crate) fn singleton_dir(profile: &Path) -> Option<PathBuf> {
    let socket = std::fs::read_link(profile.join("SingletonSocket")).ok()?;
    let dir = socket.parent()?;
    let name = dir.file_name()?.to_str()?;
    // Only a directory of the shape Chromium makes, never anything else a
    // planted link might name.
    let ours = name.starts_with("org.chromium.Chromium.") && !name.contains('/');
    ours.then(|| dir.to_path_buf())
}

/// Removes `profile` and Chromium's singleton directory for it.
pub(crate) fn remove_profile(profile: &Path) {
    if let Some(dir) = singleton_dir(profile) {
        let _ = std::fs::remove_dir_all(dir);
    }
    let _ = std::fs::remove_dir_all(profile);
}

/// Removes every profile under `profiles_dir` (as [`remove_profile`] does),
/// then the directory itself: what a previous process, killed before it could
/// clean up, left.
pub(crate) fn remove_profiles_dir(profiles_dir: &Path) {
    if let Ok(entries) = std::fs::read_dir(profiles_dir) {
        for entry in entries.flatten() {
            if let Some(dir) = singleton_dir(&entry.path()) {
                let _ = std::fs::remove_dir_all(dir);
            }
        }
    }
    let _ = std::fs::remove_dir_all(profiles_dir);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn removes_the_linked_singleton_dir_and_nothing_else() {
        let root =
            std::env::temp_dir().join(format!("distill-profile-dirs-{}", uuid::Uuid::new_v4().simple()));
        let profiles = root.join("profiles");
        let profile = profiles.join("p1");
        std::fs::create_dir_all(&profile).unwrap();
        let singleton = root.join("org.chromium.Chromium.abc123");
        std::fs::create_dir_all(&singleton).unwrap();
        std::os::unix::fs::symlink(singleton.join("SingletonSocket"), profile.join("SingletonSocket"))
            .unwrap();
        // A second profile whose link names a directory of another shape.
        let other = profiles.join("p2");
        std::fs::create_dir_all(&other).unwrap();
        let unrelated = root.join("keep-me");
        std::fs::create_dir_all(&unrelated).unwrap();
        std::os::unix::fs::symlink(unrelated.join("SingletonSocket"), other.join("SingletonSocket")).unwrap();

        remove_profiles_dir(&profiles);
        assert!(!profiles.exists());
        assert!(
            !singleton.exists(),
            "Chromium's singleton dir must go with its profile"
        );
        assert!(
            unrelated.exists(),
            "a directory not of Chromium's shape is left alone"
        );

        let again = root.join("p3");
        std::fs::create_dir_all(&again).unwrap();
        let singleton2 = root.join("org.chromium.Chromium.def456");
        std::fs::create_dir_all(&singleton2).unwrap();
        std::os::unix::fs::symlink(singleton2.join("SingletonSocket"), again.join("SingletonSocket"))
            .unwrap();
        remove_profile(&again);
        assert!(!again.exists() && !singleton2.exists());
        let _ = std::fs::remove_dir_all(&root);
    }
}
