//! What the kernel says of the server process: CPU time, resident memory
//! and context switches, from /proc.

use anyhow::Context;

/// One reading of a process.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProcSample {
    /// User plus system CPU time so far, in seconds.
    pub(crate) cpu_seconds: f64,
    /// Resident set size, in bytes.
    pub(crate) rss_bytes: u64,
    /// Context switches of all the process's threads so far, voluntary
    /// (a thread went to sleep: waiting for a wake-up, a lock or I/O) and
    /// not (preempted). Threads that ended are no longer counted.
    pub(crate) voluntary_switches: u64,
    pub(crate) involuntary_switches: u64,
}

impl ProcSample {
    /// Reads /proc/`pid`/stat and /proc/`pid`/status.
    pub(crate) fn read(pid: u32) -> anyhow::Result<ProcSample> {
        let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))
            .with_context(|| format!("reading /proc/{pid}/stat"))?;
        // The command name is in parentheses and may hold spaces: fields
        // are counted after the last ')'. utime and stime are fields 14
        // and 15 of the line, 12 and 13 after the name.
        let after_name = stat.rsplit_once(')').map_or("", |(_, rest)| rest);
        let fields: Vec<&str> = after_name.split_whitespace().collect();
        let ticks = |i: usize| -> anyhow::Result<u64> {
            fields
                .get(i)
                .context("a short /proc stat line")?
                .parse()
                .context("a /proc stat field")
        };
        // The kernel's clock ticks per second (USER_HZ) are 100 on Linux.
        let cpu_seconds = (ticks(11)? + ticks(12)?) as f64 / 100.0;
        let status = std::fs::read_to_string(format!("/proc/{pid}/status"))
            .with_context(|| format!("reading /proc/{pid}/status"))?;
        let rss_kib: u64 = status
            .lines()
            .find_map(|l| l.strip_prefix("VmRSS:"))
            .and_then(|v| v.split_whitespace().next())
            .context("no VmRSS in /proc status")?
            .parse()
            .context("VmRSS")?;
        let (voluntary_switches, involuntary_switches) = switches(pid)?;
        Ok(ProcSample {
            cpu_seconds,
            rss_bytes: rss_kib * 1024,
            voluntary_switches,
            involuntary_switches,
        })
    }
}

/// The sum over /proc/`pid`/task/*/status of each thread's context switches.
fn switches(pid: u32) -> anyhow::Result<(u64, u64)> {
    let mut total = (0, 0);
    let tasks = std::fs::read_dir(format!("/proc/{pid}/task"))
        .with_context(|| format!("reading /proc/{pid}/task"))?;
    for task in tasks {
        let Ok(task) = task else { continue };
        // A thread may end between the listing and the read.
        let Ok(status) = std::fs::read_to_string(task.path().join("status")) else {
            continue;
        };
        let field = |name: &str| -> u64 {
            status
                .lines()
                .find_map(|l| l.strip_prefix(name))
                .and_then(|v| v.trim().parse().ok())
                .unwrap_or(0)
        };
        total.0 += field("voluntary_ctxt_switches:");
        total.1 += field("nonvoluntary_ctxt_switches:");
    }
    Ok(total)
}
