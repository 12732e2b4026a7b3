//! How the file tools touch files: only regular files, never blocking on open, with size caps
//! checked before anything is allocated, and writes that are atomic, land on a symbolic link's
//! target, follow the umask, and notice a file that changed since it was read.
//!
//! * **Opening** checks the type first and then uses `O_NONBLOCK`, so a FIFO cannot stall the
//!   tool, and reads the type again from the open file itself (the path may have changed in
//!   between): a FIFO, socket, device or directory is refused with an error that says which.
//! * **Writing** goes to a temporary file in the target's directory, flushed, then renamed over
//!   the target: a reader sees the old content or the new, never a mix. A symbolic link is
//!   followed and its target written (a link to nothing is refused); a target that is not a
//!   regular file is refused. An existing file keeps its permissions and, where the process may
//!   set them, its owner and group; a new file gets `0666` less the umask, as `open(2)` gives.
//!   The rename replaces the file's inode, so a hard link to the old file keeps the old content.
//! * **Edits** ([`replace_if_unchanged`]) take an exclusive lock on the file, check that it
//!   still is the file that was read — same inode, same bytes — and only then rename; otherwise
//!   they fail with "file changed since it was read". Two tools of this crate never lose each
//!   other's edit; a program that writes without taking the lock can still slip in between the
//!   check and the rename, a window of one system call.

use std::fs::{File, Metadata, OpenOptions};
use std::io::{Read as _, Write as _};
use std::path::{Path, PathBuf};

use registry_core::ToolError;

/// The largest file Edit and NotebookEdit read, and the largest file they or Write produce:
/// 64 MiB.
pub const MAX_EDIT_BYTES: u64 = 64 * 1024 * 1024;

/// How many times an edit re-opens a file that was renamed over while it waited for the lock.
const LOCK_RETRIES: usize = 100;

/// The error for a path that does not exist.
pub(crate) fn missing(path: &Path) -> ToolError {
    ToolError::new(format!("File does not exist: {}", path.display()))
}

/// What kind of file this is, for errors about files that are not regular.
fn kind(metadata: &Metadata) -> &'static str {
    let file_type = metadata.file_type();
    if file_type.is_dir() {
        return "a directory";
    }
    if file_type.is_symlink() {
        return "a symbolic link";
    }
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt as _;
        if file_type.is_fifo() {
            return "a FIFO (named pipe)";
        }
        if file_type.is_socket() {
            return "a socket";
        }
        if file_type.is_char_device() {
            return "a character device";
        }
        if file_type.is_block_device() {
            return "a block device";
        }
    }
    "not a regular file"
}

fn not_regular(path: &Path, metadata: &Metadata) -> ToolError {
    let what = kind(metadata);
    let hint = if metadata.is_dir() {
        "; list it with Glob or with Bash `ls`"
    } else {
        ""
    };
    ToolError::new(format!(
        "{} is {what}, not a regular file; this tool only works on regular files{hint}",
        path.display()
    ))
}

/// Opens a regular file for reading without blocking (a FIFO would wait for a writer forever),
/// with its metadata as the open file reports it. The type is checked before opening too, since
/// opening some devices has effects of its own.
pub(crate) fn open_regular(path: &Path) -> Result<(File, Metadata), ToolError> {
    match std::fs::metadata(path) {
        Ok(metadata) if !metadata.is_file() => return Err(not_regular(path, &metadata)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Err(missing(path)),
        _ => {}
    }
    let mut options = OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt as _;
        options.custom_flags(libc::O_NONBLOCK | libc::O_NOCTTY);
    }
    let file = options.open(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => missing(path),
        _ => ToolError::new(format!("could not open {}: {e}", path.display())),
    })?;
    let metadata = file
        .metadata()
        .map_err(|e| ToolError::new(format!("could not read {}: {e}", path.display())))?;
    if !metadata.is_file() {
        return Err(not_regular(path, &metadata));
    }
    Ok((file, metadata))
}

/// Reads a regular file of at most `cap` bytes whole: the size is checked before reading, and
/// the read stops one byte past the cap should the file grow meanwhile.
pub(crate) fn read_capped(path: &Path, cap: u64) -> Result<Vec<u8>, ToolError> {
    let (file, metadata) = open_regular(path)?;
    let too_big = |size: u64| {
        ToolError::new(format!(
            "{} is {size} bytes; this tool edits files of at most {cap} bytes",
            path.display()
        ))
    };
    if metadata.len() > cap {
        return Err(too_big(metadata.len()));
    }
    let mut bytes = Vec::with_capacity(usize::try_from(metadata.len()).unwrap_or(0));
    file.take(cap.saturating_add(1))
        .read_to_end(&mut bytes)
        .map_err(|e| ToolError::new(format!("could not read {}: {e}", path.display())))?;
    if bytes.len() as u64 > cap {
        return Err(too_big(bytes.len() as u64));
    }
    Ok(bytes)
}

/// Reads a file as UTF-8 text for an edit: regular, at most [`MAX_EDIT_BYTES`].
pub(crate) fn read_text(path: &Path) -> Result<String, ToolError> {
    let bytes = read_capped(path, MAX_EDIT_BYTES)?;
    String::from_utf8(bytes).map_err(|_| {
        ToolError::new(format!(
            "{} is not UTF-8 text; this tool only edits text files",
            path.display()
        ))
    })
}

/// Where a write to `path` lands: `path` when nothing is there, the file itself when it is a
/// regular file, a symbolic link's final target when that is a regular file; anything else is
/// an error that says what is there.
pub(crate) fn write_target(path: &Path) -> Result<Option<(PathBuf, Metadata)>, ToolError> {
    let metadata = match std::fs::symlink_metadata(path) {
        Ok(metadata) => metadata,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(ToolError::new(format!(
                "could not inspect {}: {e}",
                path.display()
            )));
        }
    };
    if metadata.is_file() {
        return Ok(Some((path.to_path_buf(), metadata)));
    }
    if !metadata.file_type().is_symlink() {
        return Err(not_regular(path, &metadata));
    }
    let target = std::fs::canonicalize(path).map_err(|_| {
        ToolError::new(format!(
            "{} is a symbolic link to something that does not exist; write to the path it should point to instead",
            path.display()
        ))
    })?;
    let target_metadata = std::fs::metadata(&target)
        .map_err(|e| ToolError::new(format!("could not inspect {}: {e}", target.display())))?;
    if !target_metadata.is_file() {
        return Err(not_regular(&target, &target_metadata));
    }
    Ok(Some((target, target_metadata)))
}

fn write_error(path: &Path, what: &str, error: impl std::fmt::Display) -> ToolError {
    ToolError::new(format!(
        "could not write {}: {what}: {error}",
        path.display()
    ))
}

/// The new content in a temporary file beside `target`, flushed to disk, with the permissions
/// and (best effort) owner of `existing`, or `0666` less the umask for a new file.
fn staged(
    target: &Path,
    bytes: &[u8],
    existing: Option<&Metadata>,
) -> Result<tempfile::NamedTempFile, ToolError> {
    let parent = match target.parent() {
        Some(parent) if !parent.as_os_str().is_empty() => parent,
        _ => Path::new("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".toolreg-").suffix(".tmp");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt as _;
        // `open(2)` applies the umask to this mode, as it does for any new file.
        builder.permissions(std::fs::Permissions::from_mode(0o666));
    }
    let mut temp = builder
        .tempfile_in(parent)
        .map_err(|e| write_error(target, "creating a temporary file", e))?;
    if let Some(metadata) = existing {
        temp.as_file()
            .set_permissions(metadata.permissions())
            .map_err(|e| write_error(target, "copying the permissions", e))?;
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt as _;
            // Only a privileged process may give the file away; others keep their own ids.
            let _ = std::os::unix::fs::fchown(
                temp.as_file(),
                Some(metadata.uid()),
                Some(metadata.gid()),
            );
        }
    }
    temp.write_all(bytes)
        .map_err(|e| write_error(target, "writing the temporary file", e))?;
    temp.as_file()
        .sync_all()
        .map_err(|e| write_error(target, "flushing the temporary file", e))?;
    Ok(temp)
}

/// Writes `bytes` to `path` atomically, whatever was there (a symbolic link's target is
/// written; see the module docs). Refuses more than [`MAX_EDIT_BYTES`].
pub(crate) fn atomic_write(path: &Path, bytes: &[u8]) -> Result<(), ToolError> {
    check_output_size(path, bytes.len() as u64)?;
    let target = write_target(path)?;
    let (target, existing) = match &target {
        Some((target, metadata)) => (target.as_path(), Some(metadata)),
        None => (path, None),
    };
    staged(target, bytes, existing)?
        .persist(target)
        .map_err(|e| write_error(target, "renaming the temporary file into place", e.error))?;
    Ok(())
}

/// The error for a result over [`MAX_EDIT_BYTES`].
pub(crate) fn check_output_size(path: &Path, size: u64) -> Result<(), ToolError> {
    if size > MAX_EDIT_BYTES {
        return Err(ToolError::new(format!(
            "the new content of {} would be {size} bytes; the most this tool writes is {MAX_EDIT_BYTES} bytes",
            path.display()
        )));
    }
    Ok(())
}

/// The error for a file that changed between the read and the write.
fn changed(path: &Path) -> ToolError {
    ToolError::new(format!(
        "{}: file changed since it was read; read it again and redo the edit",
        path.display()
    ))
}

/// Replaces `path`, which held `original` when it was read (`None`: it did not exist), with
/// `bytes` — only if it still holds exactly that (see the module docs).
pub(crate) fn replace_if_unchanged(
    path: &Path,
    original: Option<&[u8]>,
    bytes: &[u8],
) -> Result<(), ToolError> {
    check_output_size(path, bytes.len() as u64)?;
    let Some(original) = original else {
        // A new file: the rename must not replace one that appeared meanwhile.
        return staged(path, bytes, None)?
            .persist_noclobber(path)
            .map(drop)
            .map_err(|e| match e.error.kind() {
                std::io::ErrorKind::AlreadyExists => changed(path),
                _ => write_error(path, "renaming the temporary file into place", e.error),
            });
    };
    let (target, _) = write_target(path)?.ok_or_else(|| changed(path))?;
    for _ in 0..LOCK_RETRIES {
        let (file, metadata) = open_regular(&target)?;
        file.lock()
            .map_err(|e| write_error(&target, "locking the file", e))?;
        if !still_named(&target, &metadata) {
            // Another edit renamed its result over the file while this one waited.
            continue;
        }
        let mut current = Vec::new();
        (&file)
            .take(MAX_EDIT_BYTES + 1)
            .read_to_end(&mut current)
            .map_err(|e| ToolError::new(format!("could not read {}: {e}", target.display())))?;
        if current != original {
            return Err(changed(path));
        }
        staged(&target, bytes, Some(&metadata))?
            .persist(&target)
            .map_err(|e| write_error(&target, "renaming the temporary file into place", e.error))?;
        // The lock goes with `file`, after the rename.
        drop(file);
        return Ok(());
    }
    Err(changed(path))
}

/// Whether `path` still names the file `metadata` describes.
fn still_named(path: &Path, metadata: &Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt as _;
        std::fs::metadata(path)
            .is_ok_and(|now| now.dev() == metadata.dev() && now.ino() == metadata.ino())
    }
    #[cfg(not(unix))]
    {
        let _ = (path, metadata);
        true
    }
}
