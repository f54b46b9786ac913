//! The model without FUSE: what a power cut keeps and loses.

use std::sync::Arc;
use std::sync::atomic::{AtomicU32, Ordering};

use super::*;

const OWNER: (u32, u32) = (1000, 1000);

fn name(text: &str) -> &OsStr {
    OsStr::new(text)
}

/// A model with one directory `data` and a file `data/db` in it, open.
fn with_file() -> (Model, u64) {
    let mut model = Model::from_image(&Image::new(), OWNER.0, OWNER.1);
    let data = model
        .make_directory(ROOT, name("data"), 0o755, OWNER)
        .unwrap();
    let file = model
        .create_file(data.ino, name("db"), 0o644, OWNER, true)
        .unwrap();
    (model, file.ino)
}

/// The obvious model of a file's two versions: whole copies.
#[derive(Default)]
struct Naive {
    current: Vec<u8>,
    synced: Vec<u8>,
}

#[test]
fn content_keeps_exactly_what_was_synced_whatever_the_writes() {
    let mut seed = 7u64;
    let mut next = |n: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % n
    };
    for _ in 0..200 {
        let mut content = Content::default();
        let mut naive = Naive::default();
        for _ in 0..60 {
            match next(10) {
                0..=4 => {
                    let offset = next(5 * PAGE);
                    let len = next(2 * PAGE) as usize;
                    let byte = next(255) as u8 + 1;
                    let bytes = vec![byte; len];
                    content.write(offset, &bytes).unwrap();
                    let end = offset as usize + len;
                    if end > naive.current.len() {
                        naive.current.resize(end, 0);
                    }
                    naive.current[offset as usize..end].copy_from_slice(&bytes);
                }
                5 | 6 => {
                    let size = next(6 * PAGE);
                    content.truncate(size).unwrap();
                    naive.current.resize(size as usize, 0);
                }
                7 | 8 => {
                    content.sync();
                    naive.synced = naive.current.clone();
                }
                _ => {
                    content.lose_unsynced();
                    naive.current = naive.synced.clone();
                }
            }
            assert_eq!(content.current, naive.current);
        }
        content.sync();
        naive.synced = naive.current.clone();
        assert_eq!(content.synced, naive.synced);
    }
}

#[test]
fn a_cut_keeps_synced_bytes_and_loses_the_rest() {
    let (mut model, file) = with_file();
    model.write(file, 0, b"synced", true).unwrap();
    model.sync(file).unwrap();
    model.write(file, 6, b" and not", true).unwrap();
    assert_eq!(model.read(file, 0, 100).unwrap(), b"synced and not");
    assert_eq!(
        model.current_image().file("data/db"),
        Some(&b"synced and not"[..])
    );
    assert_eq!(model.durable_image().file("data/db"), Some(&b"synced"[..]));

    model.cut();
    assert!(!model.is_powered());
    assert_eq!(model.read(file, 0, 100), Err(Errno::EIO));
    assert_eq!(model.write(file, 0, b"x", true), Err(Errno::EIO));
    assert_eq!(model.lookup(ROOT, name("data")).err(), Some(Errno::EIO));
    let durable = model.durable_image();
    assert_eq!(durable.file("data/db"), Some(&b"synced"[..]));
    assert_eq!(model.current_image(), durable, "nothing unsynced is left");

    // A new model from the image reads the synced bytes, all durable.
    let restored = Model::from_image(&durable, OWNER.0, OWNER.1);
    let data = restored.lookup(ROOT, name("data")).unwrap();
    let db = restored.lookup(data.ino, name("db")).unwrap();
    assert_eq!(db.size, 6);
    assert_eq!(restored.read(db.ino, 0, 100).unwrap(), b"synced");
    assert_eq!(restored.durable_image(), durable);
}

#[test]
fn a_truncation_is_data_until_synced() {
    let (mut model, file) = with_file();
    model.write(file, 0, &[1; 10_000], true).unwrap();
    model.sync(file).unwrap();
    let shorter = NewAttributes {
        size: Some(10),
        ..NewAttributes::default()
    };
    assert_eq!(model.set_attributes(file, shorter).unwrap().size, 10);
    assert_eq!(model.durable_image().file("data/db").unwrap().len(), 10_000);
    model.sync(file).unwrap();
    assert_eq!(model.durable_image().file("data/db"), Some(&[1; 10][..]));
}

#[test]
fn directory_operations_are_durable_at_once() {
    let (mut model, file) = with_file();
    // Created, never synced: the name survives, empty.
    model.write(file, 0, b"lost", true).unwrap();
    let data = model.lookup(ROOT, name("data")).unwrap().ino;
    model
        .rename(data, name("db"), ROOT, name("moved"), false)
        .unwrap();
    model.cut();
    let durable = model.durable_image();
    assert_eq!(durable.file("moved"), Some(&b""[..]));
    assert_eq!(durable.get("data"), Some(&Entry::Directory));
    assert_eq!(durable.get("data/db"), None);
}

#[test]
fn a_planned_cut_strikes_at_the_change_after_the_allowed_ones() {
    let (mut model, file) = with_file();
    let before = model.stats().changes;
    let told = Arc::new(AtomicU32::new(0));
    let counter = told.clone();
    model.plan_cut(
        2,
        Box::new(move || {
            counter.fetch_add(1, Ordering::SeqCst);
        }),
    );
    model.write(file, 0, b"one", true).unwrap();
    model.sync(file).unwrap();
    // Reads and write-backs of mapped pages are not counted.
    model.read(file, 0, 10).unwrap();
    model.write(file, 3, b"-mapped", false).unwrap();
    assert_eq!(told.load(Ordering::SeqCst), 0);
    assert_eq!(model.write(file, 3, b" two", true), Err(Errno::EIO));
    assert_eq!(told.load(Ordering::SeqCst), 1, "told once");
    assert!(!model.is_powered());
    assert_eq!(model.stats().changes, before + 2);
    assert_eq!(model.durable_image().file("data/db"), Some(&b"one"[..]));
    model.cut();
    assert_eq!(told.load(Ordering::SeqCst), 1, "still once");
}

#[test]
fn an_unlinked_open_file_lives_until_released() {
    let (mut model, file) = with_file();
    let data = model.lookup(ROOT, name("data")).unwrap().ino;
    model.write(file, 0, b"journal", true).unwrap();
    model.unlink(data, name("db")).unwrap();
    assert_eq!(model.lookup(data, name("db")).err(), Some(Errno::ENOENT));
    assert_eq!(model.read(file, 0, 10).unwrap(), b"journal");
    model.release(file);
    assert_eq!(model.read(file, 0, 10), Err(Errno::ENOENT));
}

#[test]
fn renames_replace_files_and_refuse_what_posix_refuses() {
    let (mut model, file) = with_file();
    let data = model.lookup(ROOT, name("data")).unwrap().ino;
    model.write(file, 0, b"new", true).unwrap();
    model.sync(file).unwrap();
    let old = model
        .create_file(data, name("old"), 0o644, OWNER, true)
        .unwrap();
    model.release(old.ino);
    model
        .rename(data, name("db"), data, name("old"), false)
        .unwrap();
    assert_eq!(model.read(old.ino, 0, 10), Err(Errno::ENOENT));
    let replaced = model.lookup(data, name("old")).unwrap();
    assert_eq!(replaced.ino, file);
    assert_eq!(
        model
            .create_file(data, name("old"), 0o644, OWNER, true)
            .err(),
        Some(Errno::EEXIST)
    );
    model
        .make_directory(data, name("sub"), 0o755, OWNER)
        .unwrap();
    assert_eq!(
        model.rename(ROOT, name("data"), data, name("inside"), false),
        Err(Errno::EINVAL),
        "a directory cannot move into itself"
    );
    assert_eq!(
        model.rename(data, name("old"), data, name("sub"), false),
        Err(Errno::EISDIR)
    );
    assert_eq!(
        model.remove_directory(ROOT, name("data")),
        Err(Errno::ENOTEMPTY)
    );
    let names: Vec<_> = model
        .list(data)
        .unwrap()
        .into_iter()
        .map(|(_, _, n)| n)
        .collect();
    assert_eq!(names, [".", "..", "old", "sub"]);
}
