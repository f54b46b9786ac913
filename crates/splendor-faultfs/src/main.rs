//! `splendor-faultfs`: mounts the fault-injecting file system for a manual
//! experiment, driven by lines on standard input.
//!
//! ```text
//! splendor-faultfs MOUNTPOINT [--image DIR] [--save DIR]
//! ```
//!
//! The file system starts with the content of `--image` (a directory's
//! regular files and subdirectories, all durable), or empty. Commands, one
//! per line: `cut` (the power cut: unsynced writes are lost, every later
//! operation fails), `cut-after N` (the cut at the change after the next
//! N), `stats`, `exit`. At `exit` or the end of the input it unmounts and,
//! with `--save`, writes what is left into that new directory: what the
//! cut left, or everything when the power stayed on (a clean shutdown).
//! Run a program on the mount, cut, exit, then mount the saved directory
//! again: that is the program's machine after a power loss.
#![forbid(unsafe_code)]

use std::io::BufRead;
use std::path::PathBuf;
use std::process::ExitCode;

use splendor_faultfs::{Image, Mount};

const USAGE: &str = "usage: splendor-faultfs MOUNTPOINT [--image DIR] [--save DIR]";

struct Args {
    mountpoint: PathBuf,
    image: Option<PathBuf>,
    save: Option<PathBuf>,
}

fn parse(mut args: impl Iterator<Item = String>) -> Result<Args, String> {
    let mut mountpoint = None;
    let mut image = None;
    let mut save = None;
    while let Some(arg) = args.next() {
        let mut value = |name: &str| args.next().ok_or(format!("{name} needs a directory"));
        match arg.as_str() {
            "--image" => image = Some(PathBuf::from(value("--image")?)),
            "--save" => save = Some(PathBuf::from(value("--save")?)),
            "-h" | "--help" => return Err(String::new()),
            _ if mountpoint.is_none() && !arg.starts_with('-') => {
                mountpoint = Some(PathBuf::from(arg));
            }
            _ => return Err(format!("unexpected argument {arg}")),
        }
    }
    Ok(Args {
        mountpoint: mountpoint.ok_or("a mount point is needed")?,
        image,
        save,
    })
}

fn main() -> ExitCode {
    let args = match parse(std::env::args().skip(1)) {
        Ok(args) => args,
        Err(message) => {
            if !message.is_empty() {
                eprintln!("splendor-faultfs: {message}");
            }
            eprintln!("{USAGE}");
            return ExitCode::from(2);
        }
    };
    match run(args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            eprintln!("splendor-faultfs: {message}");
            ExitCode::FAILURE
        }
    }
}

fn run(args: Args) -> Result<(), String> {
    let image = match &args.image {
        Some(dir) => Image::load(dir).map_err(|e| format!("{}: {e}", dir.display()))?,
        None => Image::new(),
    };
    let mount = Mount::new(&args.mountpoint, &image).map_err(|e| e.to_string())?;
    println!("mounted at {}", args.mountpoint.display());
    for line in std::io::stdin().lock().lines() {
        let line = line.map_err(|e| format!("standard input: {e}"))?;
        let words: Vec<&str> = line.split_whitespace().collect();
        match words.as_slice() {
            [] => {}
            ["cut"] => {
                mount.cut_power();
                println!("power cut");
            }
            ["cut-after", n] => match n.parse() {
                Ok(changes) => {
                    mount.cut_power_after(changes, || println!("power cut"));
                    println!("power cut planned after {changes} changes");
                }
                Err(_) => println!("cut-after needs a number"),
            },
            ["stats"] => println!("{:?} powered: {}", mount.stats(), mount.is_powered()),
            ["exit"] => break,
            _ => println!("commands: cut, cut-after N, stats, exit"),
        }
    }
    let left = if mount.is_powered() {
        mount.current_image()
    } else {
        mount.durable_image()
    };
    mount.unmount().map_err(|e| format!("unmount: {e}"))?;
    if let Some(dir) = &args.save {
        left.save(dir)
            .map_err(|e| format!("save into {}: {e}", dir.display()))?;
        println!("saved into {}", dir.display());
    }
    Ok(())
}
