//! The file system mounted for real, through the kernel: what a program's
//! system calls see before and after a power cut, and what survives it.
//! Needs FUSE, like the power-loss test (issue 12): without it this fails,
//! saying what to install.

use std::fs::{self, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::Path;

use splendor_faultfs::{Entry, FUSE_HELP, Image, Mount};

fn mount(mountpoint: &Path, image: &Image) -> Mount {
    Mount::new(mountpoint, image)
        .unwrap_or_else(|err| panic!("this test needs FUSE and never skips: {err} ({FUSE_HELP})"))
}

#[test]
fn only_synced_data_survives_a_power_cut() {
    let scratch = tempfile::tempdir().unwrap();
    let mut image = Image::new();
    image.insert_file("kept/old.txt", b"from the image".to_vec());
    let fs = mount(scratch.path(), &image);
    let root = fs.path().to_path_buf();
    assert_eq!(
        fs::read_to_string(root.join("kept/old.txt")).unwrap(),
        "from the image"
    );

    fs::create_dir(root.join("data")).unwrap();
    let mut synced = OpenOptions::new()
        .create(true)
        .read(true)
        .write(true)
        .truncate(false)
        .open(root.join("data/log"))
        .unwrap();
    synced.write_all(b"committed").unwrap();
    synced.sync_data().unwrap();
    synced.write_all(b" and pending").unwrap();
    synced.seek(SeekFrom::Start(0)).unwrap();
    let mut read = String::new();
    synced.read_to_string(&mut read).unwrap();
    assert_eq!(read, "committed and pending", "reads see unsynced writes");
    fs::write(root.join("data/never-synced"), b"lost").unwrap();
    fs::write(root.join("data/renamed"), b"x").unwrap();
    fs::rename(root.join("data/renamed"), root.join("data/moved")).unwrap();
    let before = fs.stats();
    assert!(
        before.syncs >= 1 && before.changes > before.syncs,
        "{before:?}"
    );

    fs.cut_power();
    assert!(!fs.is_powered());
    let err = synced.write_all(b"after").unwrap_err();
    assert_eq!(err.raw_os_error(), Some(5), "EIO after the cut: {err}");
    drop(synced);
    let durable = fs.durable_image();
    fs.unmount().unwrap();

    assert_eq!(durable.file("data/log"), Some(&b"committed"[..]));
    assert_eq!(durable.file("data/never-synced"), Some(&b""[..]));
    assert_eq!(durable.file("data/moved"), Some(&b""[..]));
    assert_eq!(durable.get("data/renamed"), None);
    assert_eq!(durable.file("kept/old.txt"), Some(&b"from the image"[..]));

    // The reboot: a new mount of what survived.
    let fs = mount(scratch.path(), &durable);
    let root = fs.path().to_path_buf();
    assert_eq!(fs::read(root.join("data/log")).unwrap(), b"committed");
    let mut names: Vec<_> = fs::read_dir(root.join("data"))
        .unwrap()
        .map(|e| e.unwrap().file_name().into_string().unwrap())
        .collect();
    names.sort();
    assert_eq!(names, ["log", "moved", "never-synced"]);
    // A clean unmount keeps everything, synced or not.
    fs::write(root.join("data/log"), b"rewritten").unwrap();
    let current = fs.current_image();
    fs.unmount().unwrap();
    assert_eq!(current.file("data/log"), Some(&b"rewritten"[..]));
    assert_eq!(current.get("kept"), Some(&Entry::Directory));
}

#[test]
fn a_planned_cut_strikes_at_its_change_and_says_so() {
    let scratch = tempfile::tempdir().unwrap();
    let fs = mount(scratch.path(), &Image::new());
    let path = fs.path().join("file");
    let mut file = OpenOptions::new()
        .create(true)
        .append(true)
        .open(&path)
        .unwrap();
    let (tell, told) = std::sync::mpsc::channel();
    fs.cut_power_after(3, move || tell.send(()).unwrap());
    file.write_all(b"1").unwrap();
    file.sync_all().unwrap();
    file.write_all(b"2").unwrap();
    assert!(told.try_recv().is_err(), "not yet");
    assert!(file.write_all(b"3").is_err(), "the fourth change fails");
    told.try_recv().expect("told of the cut");
    drop(file);
    let durable = fs.durable_image();
    fs.unmount().unwrap();
    assert_eq!(durable.file("file"), Some(&b"1"[..]));
}
