//! What the kernel says of the server process: CPU time and resident
//! memory, from /proc.

use anyhow::Context;

/// One reading of a process.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ProcSample {
    /// User plus system CPU time so far, in seconds.
    pub(crate) cpu_seconds: f64,
    /// Resident set size, in bytes.
    pub(crate) rss_bytes: u64,
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
        Ok(ProcSample {
            cpu_seconds,
            rss_bytes: rss_kib * 1024,
        })
    }
}
