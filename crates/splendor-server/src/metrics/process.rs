//! The build and the process, read at each scrape.

use std::fmt;

use prometheus_client::collector::Collector;
use prometheus_client::encoding::{DescriptorEncoder, EncodeMetric};
use prometheus_client::metrics::counter::ConstCounter;
use prometheus_client::metrics::gauge::ConstGauge;
use prometheus_client::registry::Unit;

/// The build and the process: `splendor_build_info{version}`, and (on
/// Linux, from `/proc/self`) resident memory, CPU time, open descriptors
/// and their limit.
#[derive(Debug)]
pub(super) struct ProcessCollector;

/// Linux's page size and clock tick on the platforms we build for.
const PAGE_BYTES: u64 = 4096;
const CLOCK_TICKS_PER_SECOND: f64 = 100.0;

impl Collector for ProcessCollector {
    fn encode(&self, mut encoder: DescriptorEncoder) -> Result<(), fmt::Error> {
        let info = ConstGauge::new(1i64);
        let mut build = encoder.encode_descriptor(
            "build_info",
            "The server's version (always 1)",
            None,
            info.metric_type(),
        )?;
        info.encode(build.encode_family(&[("version", env!("CARGO_PKG_VERSION"))])?)?;
        let statm = std::fs::read_to_string("/proc/self/statm").unwrap_or_default();
        let stat = std::fs::read_to_string("/proc/self/stat").unwrap_or_default();
        // Fields after the command name, which is in parentheses.
        let fields: Vec<&str> = stat
            .rsplit_once(')')
            .map_or(Vec::new(), |(_, rest)| rest.split_whitespace().collect());
        let ticks = |i: usize| fields.get(i).and_then(|f| f.parse::<u64>().ok());
        if let Some(pages) = statm
            .split_whitespace()
            .nth(1)
            .and_then(|p| p.parse::<u64>().ok())
        {
            let g = ConstGauge::new(i64::try_from(pages * PAGE_BYTES).unwrap_or(i64::MAX));
            let m = encoder.encode_descriptor(
                "process_resident_memory",
                "Resident memory",
                Some(&Unit::Bytes),
                g.metric_type(),
            )?;
            g.encode(m)?;
        }
        // utime and stime are fields 14 and 15 of stat: 11 and 12 here.
        if let (Some(user), Some(system)) = (ticks(11), ticks(12)) {
            let c = ConstCounter::new((user + system) as f64 / CLOCK_TICKS_PER_SECOND);
            let m = encoder.encode_descriptor(
                "process_cpu",
                "CPU time used, user and system",
                Some(&Unit::Seconds),
                c.metric_type(),
            )?;
            c.encode(m)?;
        }
        if let Ok(fds) = std::fs::read_dir("/proc/self/fd") {
            let g = ConstGauge::new(i64::try_from(fds.count()).unwrap_or(i64::MAX));
            let m = encoder.encode_descriptor(
                "process_open_fds",
                "Open file descriptors (each connection is one)",
                None,
                g.metric_type(),
            )?;
            g.encode(m)?;
        }
        if let Some(limit) = open_file_limit() {
            let g = ConstGauge::new(i64::try_from(limit).unwrap_or(i64::MAX));
            let m = encoder.encode_descriptor(
                "process_max_fds",
                "The open-file limit (RLIMIT_NOFILE)",
                None,
                g.metric_type(),
            )?;
            g.encode(m)?;
        }
        Ok(())
    }
}

/// The process's limit on open files (`RLIMIT_NOFILE`, soft), read from
/// `/proc/self/limits`; `None` where that file does not exist.
pub fn open_file_limit() -> Option<u64> {
    let limits = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = limits.lines().find(|l| l.starts_with("Max open files"))?;
    let soft = line
        .trim_start_matches("Max open files")
        .split_whitespace()
        .next()?;
    if soft == "unlimited" {
        return Some(u64::MAX);
    }
    soft.parse().ok()
}
