//! Writing the result files (`-o`, `--tma-manifest`) as one transaction.
//!
//! Each file is written to a temporary file in its target's directory, and
//! only when all are written are they renamed over their targets; should a
//! rename fail, the files already renamed get their old contents back (or are
//! removed when they did not exist). A path that is a symbolic link is
//! written through: the link's final target is replaced, as mlir-opt does.

use std::{
    io::Write,
    path::{Path, PathBuf},
};

use tempfile::NamedTempFile;

/// An output could not be written.
#[derive(Debug, thiserror::Error)]
#[error("could not write output file '{path}': {source}")]
pub struct OutputError {
    path: PathBuf,
    source: std::io::Error,
}

/// How many links [`resolve_links`] follows, as Linux's `MAXSYMLINKS`.
const MAX_LINKS: usize = 40;

/// `path` with every symbolic link in its last component followed, so that
/// the rename replaces the file the link names and not the link.
fn resolve_links(path: &Path) -> std::io::Result<PathBuf> {
    let mut current = path.to_path_buf();
    for _ in 0..MAX_LINKS {
        match std::fs::symlink_metadata(&current) {
            Ok(metadata) if metadata.file_type().is_symlink() => {
                let target = std::fs::read_link(&current)?;
                current = match current.parent() {
                    Some(parent) if target.is_relative() => parent.join(target),
                    _ => target,
                };
            }
            _ => return Ok(current),
        }
    }
    Err(std::io::Error::other("too many levels of symbolic links"))
}

/// A path naming the same file as `path` whenever two do: links followed,
/// the directory made canonical (the file itself need not exist yet).
fn identity(path: &Path) -> PathBuf {
    let resolved = resolve_links(path).unwrap_or_else(|_| path.to_path_buf());
    let directory = match resolved.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    match (std::fs::canonicalize(directory), resolved.file_name()) {
        (Ok(directory), Some(name)) => directory.join(name),
        _ => resolved,
    }
}

/// Whether `path` is a device, pipe or socket (`/dev/null`, `/dev/stdout`, a
/// fifo): a rename cannot replace it, and it is written in place.
fn is_special(path: &Path) -> bool {
    std::fs::metadata(path).is_ok_and(|metadata| !metadata.is_file() && !metadata.is_dir())
}

/// Whether two output paths would write the same file (two devices, such as
/// `/dev/null` twice, may be shared).
pub fn same_file(first: &Path, second: &Path) -> bool {
    identity(first) == identity(second) && !is_special(first)
}

/// One file to write, staged in a temporary file next to its target.
struct Staged<'a> {
    /// The path as the user gave it, for messages.
    given: &'a Path,
    target: PathBuf,
    file: NamedTempFile,
}

fn stage<'a>(given: &'a Path, target: PathBuf, bytes: &[u8]) -> Result<Staged<'a>, OutputError> {
    let error = |source| OutputError {
        path: given.to_path_buf(),
        source,
    };
    let directory = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut file = NamedTempFile::new_in(&directory).map_err(error)?;
    // The temporary file is created 0600; give the output the mode an existing
    // file had, or a new file's usual 0644.
    let permissions = match std::fs::metadata(&target) {
        Ok(metadata) => metadata.permissions(),
        Err(_) => std::os::unix::fs::PermissionsExt::from_mode(0o644),
    };
    file.as_file().set_permissions(permissions).map_err(error)?;
    file.write_all(bytes).map_err(error)?;
    file.as_file().sync_all().map_err(error)?;
    Ok(Staged {
        given,
        target,
        file,
    })
}

/// Writes every `(path, bytes)` pair, or, on an error, leaves every path as
/// it was. Devices and pipes are written last, in place (they cannot be
/// staged, nor taken back).
pub fn write_together(files: &[(&Path, &[u8])]) -> Result<(), OutputError> {
    let mut staged = Vec::new();
    let mut in_place = Vec::new();
    for &(given, bytes) in files {
        let target = resolve_links(given).map_err(|source| OutputError {
            path: given.to_path_buf(),
            source,
        })?;
        if is_special(&target) {
            in_place.push((given, target, bytes));
        } else {
            staged.push(stage(given, target, bytes)?);
        }
    }
    // What each target held before, to put back if a later rename fails.
    let mut committed: Vec<(PathBuf, Option<Vec<u8>>)> = Vec::new();
    for Staged {
        given,
        target,
        file,
    } in staged
    {
        let before = std::fs::read(&target).ok();
        if let Err(persist) = file.persist(&target) {
            roll_back(committed);
            return Err(OutputError {
                path: given.to_path_buf(),
                source: persist.error,
            });
        }
        committed.push((target, before));
    }
    for (given, target, bytes) in in_place {
        std::fs::write(&target, bytes).map_err(|source| OutputError {
            path: given.to_path_buf(),
            source,
        })?;
    }
    Ok(())
}

/// Puts back what the renamed files held (best effort: the error that made
/// the write fail is the one reported).
fn roll_back(committed: Vec<(PathBuf, Option<Vec<u8>>)>) {
    for (target, before) in committed.into_iter().rev() {
        let _ = match before {
            Some(bytes) => stage(&target, target.clone(), &bytes).and_then(|staged| {
                staged
                    .file
                    .persist(&staged.target)
                    .map(drop)
                    .map_err(|persist| OutputError {
                        path: target.clone(),
                        source: persist.error,
                    })
            }),
            None => std::fs::remove_file(&target).map_err(|source| OutputError {
                path: target.clone(),
                source,
            }),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_failed_rename_restores_the_files_written_before() {
        let directory = tempfile::tempdir().unwrap();
        let manifest = directory.path().join("manifest.json");
        let fresh = directory.path().join("fresh.json");
        std::fs::write(&manifest, b"old").unwrap();
        // A directory cannot be replaced by a file: the last rename fails.
        let blocked = directory.path().join("out");
        std::fs::create_dir(&blocked).unwrap();
        std::fs::write(blocked.join("keep"), b"").unwrap();
        let files: [(&Path, &[u8]); 3] =
            [(&manifest, b"new"), (&fresh, b"new"), (&blocked, b"text")];
        assert!(write_together(&files).is_err());
        assert_eq!(std::fs::read(&manifest).unwrap(), b"old");
        assert!(!fresh.exists());
        let mut left: Vec<_> = std::fs::read_dir(directory.path())
            .unwrap()
            .map(|entry| entry.unwrap().file_name())
            .collect();
        left.sort();
        assert_eq!(left, ["manifest.json", "out"]);
    }

    #[test]
    fn writes_through_links_and_sees_them_as_one_file() {
        let directory = tempfile::tempdir().unwrap();
        let real = directory.path().join("real");
        let link = directory.path().join("link");
        let chain = directory.path().join("chain");
        std::os::unix::fs::symlink("real", &link).unwrap();
        std::os::unix::fs::symlink(&link, &chain).unwrap();
        assert!(same_file(&chain, &real));
        assert!(same_file(&directory.path().join(".").join("real"), &real));
        assert!(!same_file(&link, &directory.path().join("other")));
        assert!(!same_file(Path::new("/dev/null"), Path::new("/dev/null")));
        write_together(&[(&chain, b"text")]).unwrap();
        assert!(std::fs::symlink_metadata(&chain)
            .unwrap()
            .file_type()
            .is_symlink());
        assert!(std::fs::symlink_metadata(&link)
            .unwrap()
            .file_type()
            .is_symlink());
        assert_eq!(std::fs::read(&real).unwrap(), b"text");
    }

    #[test]
    fn a_link_loop_is_an_error() {
        let directory = tempfile::tempdir().unwrap();
        let a = directory.path().join("a");
        std::os::unix::fs::symlink("a", &a).unwrap();
        let error = write_together(&[(&a, b"x")]).unwrap_err().to_string();
        assert!(
            error.contains("too many levels of symbolic links"),
            "{error}"
        );
    }
}
