//! [`Image`]: the content of a file system at one moment, as plain data.
//!
//! A mount starts from an image and gives its durable content back as one
//! after a power cut; the next mount starts from that. Only directories and
//! regular files exist, with their bytes: what SQLite needs.

use std::collections::BTreeMap;
use std::io;
use std::path::{Component, Path, PathBuf};

/// Directories and files by their path relative to the file system's root.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Image {
    /// Every directory and file but the root. The order of `PathBuf` is by
    /// components, so a directory comes before everything in it.
    entries: BTreeMap<PathBuf, Entry>,
}

/// One directory or file of an [`Image`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Entry {
    /// A directory (its content is the entries below its path).
    Directory,
    /// A regular file and its bytes.
    File(Vec<u8>),
}

impl Image {
    /// An empty file system: the root directory only.
    pub fn new() -> Image {
        Image::default()
    }

    /// Adds a directory, and any missing directory above it.
    ///
    /// # Panics
    /// If `path` is not a relative path of plain names, or a file is in the way.
    pub fn insert_directory(&mut self, path: impl AsRef<Path>) {
        let path = checked(path.as_ref());
        self.insert_parents(&path);
        self.entries.insert(path, Entry::Directory);
    }

    /// Adds (or replaces) a file, and any missing directory above it.
    ///
    /// # Panics
    /// If `path` is not a relative path of plain names, or a file is in the way.
    pub fn insert_file(&mut self, path: impl AsRef<Path>, bytes: Vec<u8>) {
        let path = checked(path.as_ref());
        self.insert_parents(&path);
        self.entries.insert(path, Entry::File(bytes));
    }

    fn insert_parents(&mut self, path: &Path) {
        for parent in path.ancestors().skip(1) {
            if parent.as_os_str().is_empty() {
                break;
            }
            match self.entries.get(parent) {
                Some(Entry::Directory) => break,
                Some(Entry::File(_)) => panic!("{} is a file", parent.display()),
                None => {
                    self.entries.insert(parent.to_path_buf(), Entry::Directory);
                }
            }
        }
    }

    /// The entry at `path`, if any.
    pub fn get(&self, path: impl AsRef<Path>) -> Option<&Entry> {
        self.entries.get(path.as_ref())
    }

    /// The bytes of the file at `path`, if there is a file there.
    pub fn file(&self, path: impl AsRef<Path>) -> Option<&[u8]> {
        match self.get(path) {
            Some(Entry::File(bytes)) => Some(bytes),
            _ => None,
        }
    }

    /// Every entry, a directory before what it holds.
    pub fn entries(&self) -> impl Iterator<Item = (&Path, &Entry)> {
        self.entries
            .iter()
            .map(|(path, entry)| (path.as_path(), entry))
    }

    /// The directories and regular files under `dir` (symbolic links and
    /// other kinds of file are refused).
    pub fn load(dir: &Path) -> io::Result<Image> {
        let mut image = Image::new();
        load_into(&mut image, dir, Path::new(""))?;
        Ok(image)
    }

    /// Writes the image into `dir`, which must not exist yet (nothing is
    /// ever overwritten).
    pub fn save(&self, dir: &Path) -> io::Result<()> {
        std::fs::create_dir(dir)?;
        for (path, entry) in self.entries() {
            let target = dir.join(path);
            match entry {
                Entry::Directory => std::fs::create_dir(&target)?,
                Entry::File(bytes) => std::fs::write(&target, bytes)?,
            }
        }
        Ok(())
    }
}

fn load_into(image: &mut Image, dir: &Path, relative: &Path) -> io::Result<()> {
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let kind = entry.file_type()?;
        let path = relative.join(entry.file_name());
        if kind.is_dir() {
            image.insert_directory(&path);
            load_into(image, &entry.path(), &path)?;
        } else if kind.is_file() {
            image.insert_file(&path, std::fs::read(entry.path())?);
        } else {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("{}: only directories and regular files", path.display()),
            ));
        }
    }
    Ok(())
}

/// `path` if it is relative and made of plain names only.
fn checked(path: &Path) -> PathBuf {
    assert!(
        !path.as_os_str().is_empty()
            && path.components().all(|c| matches!(c, Component::Normal(_))),
        "not a relative path of plain names: {}",
        path.display()
    );
    path.components().collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parents_are_added_and_come_first() {
        let mut image = Image::new();
        image.insert_file("data/splendor.db", b"x".to_vec());
        image.insert_directory("data/more/deep");
        let paths: Vec<_> = image.entries().map(|(p, _)| p.to_path_buf()).collect();
        assert_eq!(
            paths,
            ["data", "data/more", "data/more/deep", "data/splendor.db"]
                .map(PathBuf::from)
                .to_vec()
        );
        assert_eq!(image.file("data/splendor.db"), Some(&b"x"[..]));
        assert_eq!(image.file("data"), None);
    }

    #[test]
    #[should_panic(expected = "not a relative path")]
    fn absolute_paths_are_refused() {
        Image::new().insert_directory("/etc");
    }

    #[test]
    fn an_image_saved_loads_back_the_same() {
        let mut image = Image::new();
        image.insert_file("a/b.txt", b"hello".to_vec());
        image.insert_file("c", Vec::new());
        image.insert_directory("d");
        let scratch = tempfile::tempdir().unwrap();
        let dir = scratch.path().join("image");
        image.save(&dir).unwrap();
        assert_eq!(Image::load(&dir).unwrap(), image);
        assert!(
            image.save(&dir).is_err(),
            "never over an existing directory"
        );
    }
}
