//! Children that do not outlive the server: a spawned process is set, between fork and
//! exec, to receive SIGKILL when the thread that forked it dies (`PR_SET_PDEATHSIG`), and
//! optionally put in a process group of its own so that its own children can be killed
//! with it.

use std::os::unix::process::CommandExt;
use std::process::Command;

/// Makes `cmd`'s child die with the server (SIGKILL on its parent's death) and, with
/// `new_group`, lead a new process group (`setpgid(0, 0)`). Runs after whatever
/// `pre_exec` closures `cmd` already holds; a failure fails the spawn.
pub fn die_with_parent(cmd: &mut Command, new_group: bool) {
    // SAFETY: prctl and setpgid are async-signal-safe and touch nothing of the parent's
    // memory; nothing else runs between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            if libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL) != 0
                || (new_group && libc::setpgid(0, 0) != 0)
            {
                return Err(std::io::Error::last_os_error());
            }
            Ok(())
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::os::unix::process::ExitStatusExt;

    /// The pid and the process group of a child (`exec`: the shell becomes `cut`).
    fn pid_and_group(new_group: bool) -> (i64, i64) {
        let mut cmd = Command::new("sh");
        // Field 1 of /proc/self/stat is the pid, field 5 the process group.
        cmd.args(["-c", "exec cut -d' ' -f1,5 /proc/self/stat"]);
        die_with_parent(&mut cmd, new_group);
        let out = cmd.output().expect("spawn sh");
        assert!(out.status.success());
        let fields: Vec<i64> = String::from_utf8(out.stdout)
            .unwrap()
            .split_whitespace()
            .map(|f| f.parse().unwrap())
            .collect();
        (fields[0], fields[1])
    }

    #[test]
    fn the_child_leads_a_new_group_only_when_asked() {
        let (pid, group) = pid_and_group(true);
        assert_eq!(pid, group);
        let (pid, group) = pid_and_group(false);
        assert_ne!(pid, group);
    }

    #[test]
    fn the_child_is_killed_when_the_thread_that_spawned_it_ends() {
        // The parent-death signal follows the forking thread: the child, asleep far longer
        // than the test, is killed by SIGKILL once that thread has returned.
        let spawner = std::thread::spawn(|| {
            let mut cmd = Command::new("sleep");
            cmd.arg("300");
            die_with_parent(&mut cmd, false);
            cmd.spawn().expect("spawn sleep")
        });
        let mut child = spawner.join().unwrap();
        let status = child.wait().unwrap();
        assert_eq!(status.signal(), Some(libc::SIGKILL));
    }
}
