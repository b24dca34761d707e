//! Writing files: one rule for every command that writes (`fmt --write`,
//! `patch --write`, `build -o`, `run --trace`), so that no write destroys
//! what it should not (`spec/cli.md`, "Writing files"):
//!
//! - A regular file, or a path where nothing is yet, is replaced whole: the
//!   new content goes to a temporary file in the same folder, which then
//!   takes the target's name (`rename`). A failure or an interrupted write
//!   leaves the old file as it was. The new file keeps the old one's
//!   permissions, and its owner and group where the system lets it; a file
//!   that was not there gets 0666 less the umask, as any new file.
//! - A symbolic link is followed to the file it names: that file is
//!   replaced, the link stays a link.
//! - A file whose owner cannot be kept (it belongs to someone else) or that
//!   has other names (hard links) is rewritten in place instead, as editors
//!   do, so that it stays the same file for everyone who shares it.
//! - A read-only file is refused, unless the command has `--force`.
//! - Anything that is not a regular file (a device such as `/dev/null`, a
//!   FIFO, a terminal, `/dev/stdout`) is written directly, as a stream: it
//!   is never replaced, and nothing is created beside it.
//! - `-` names no file: writing to it is bad usage.
//!
//! A trace is the one exception to "replaced whole": it is written in place
//! as the run goes ([`Options::as_it_goes`]), so that a run that is killed
//! leaves the events that led up to it.

use super::Failure;
use crate::diag::Code;
use anyhow::{Context, Result};
use std::fs::{File, Metadata, OpenOptions};
use std::io::{self, BufWriter, Write};
use std::os::unix::fs::MetadataExt;
use std::path::{Path, PathBuf};

/// How many symbolic links a path may go through (as Linux's `MAXSYMLINKS`).
const MAX_LINKS: usize = 40;

/// How a path is written.
#[derive(Debug, PartialEq, Eq)]
enum Plan {
    /// A temporary file in the folder of `target`, renamed over it.
    Replace { target: PathBuf },
    /// The regular file `target`, truncated and written.
    InPlace { target: PathBuf },
    /// Not a regular file: opened for writing (appending) and streamed to.
    Direct { target: PathBuf },
    /// This process's own standard output or error (`/dev/stdout`,
    /// `/dev/fd/2`), written through the descriptor it already has, so
    /// that what it writes there otherwise stays in order with it.
    Stream(StdStream),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum StdStream {
    Out,
    Err,
}

/// What a write may do.
#[derive(Debug, Clone, Copy, Default)]
pub struct Options {
    /// Rewrite a read-only file too.
    pub force: bool,
    /// Write a regular file in place as the output is made, rather than
    /// replace it whole at the end: for a trace, whose events up to a kill
    /// are worth more than the old trace.
    pub as_it_goes: bool,
    /// The file is a program to run (an artifact marked executable): it
    /// gets the execute permission wherever it has the read permission.
    pub executable: bool,
}

/// A file being written; [`Output::commit`] finishes it. Dropped without a
/// commit, a replacement leaves the target as it was.
#[derive(Debug)]
pub struct Output {
    sink: BufWriter<Sink>,
    target: PathBuf,
    executable: bool,
}

#[derive(Debug)]
enum Sink {
    Temp {
        file: tempfile::NamedTempFile,
        /// The permissions, owner and group to give the new file.
        keep: Option<Box<Metadata>>,
    },
    File(File),
    Stream(StdStream),
}

impl Write for Sink {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        match self {
            Sink::Temp { file, .. } => file.write(buf),
            Sink::File(f) => f.write(buf),
            Sink::Stream(StdStream::Out) => io::stdout().write(buf),
            Sink::Stream(StdStream::Err) => io::stderr().write(buf),
        }
    }

    fn flush(&mut self) -> io::Result<()> {
        match self {
            Sink::Temp { file, .. } => file.flush(),
            Sink::File(f) => f.flush(),
            Sink::Stream(StdStream::Out) => io::stdout().flush(),
            Sink::Stream(StdStream::Err) => io::stderr().flush(),
        }
    }
}

impl Write for Output {
    fn write(&mut self, buf: &[u8]) -> io::Result<usize> {
        self.sink.write(buf)
    }

    fn write_all(&mut self, buf: &[u8]) -> io::Result<()> {
        self.sink.write_all(buf)
    }

    fn flush(&mut self) -> io::Result<()> {
        self.sink.flush()
    }
}

impl Output {
    /// Opens `path` for writing by the rules of this module.
    pub fn create(path: &Path, options: Options) -> Result<Output> {
        refuse_dash(path)?;
        let sink = match plan(path)? {
            Plan::Replace { target } if options.as_it_goes => {
                return Output::in_place(path, target, options)
            }
            Plan::Replace { target } => {
                let keep = match std::fs::metadata(&target) {
                    Ok(m) => {
                        check_writable(path, &target, &m, options)?;
                        Some(m)
                    }
                    Err(e) if e.kind() == io::ErrorKind::NotFound => None,
                    Err(e) => {
                        return Err(e).with_context(|| format!("reading {}", target.display()))
                    }
                };
                let dir = folder_of(&target);
                let name = target
                    .file_name()
                    .map(|n| n.to_string_lossy().into_owned())
                    .unwrap_or_default();
                let prefix = format!(".{name}.");
                let mut builder = tempfile::Builder::new();
                builder.prefix(&prefix).suffix(".isu-tmp");
                if keep.is_none() {
                    // A new file gets what any new file gets (0666 less the
                    // umask), not a temporary file's 0600.
                    use std::os::unix::fs::PermissionsExt;
                    builder.permissions(std::fs::Permissions::from_mode(0o666));
                }
                let file = builder.tempfile_in(dir).with_context(|| {
                    format!(
                        "creating a temporary file in {} to write {}",
                        dir.display(),
                        path.display()
                    )
                })?;
                if let Some(m) = &keep {
                    let kept = owner_can_be_kept(file.as_file(), m)
                        .with_context(|| format!("reading {}", dir.display()))?;
                    if !kept {
                        drop(file);
                        return Output::in_place(path, target, options);
                    }
                }
                return Ok(Output {
                    sink: BufWriter::with_capacity(
                        1 << 16,
                        Sink::Temp {
                            file,
                            keep: keep.map(Box::new),
                        },
                    ),
                    target,
                    executable: options.executable,
                });
            }
            Plan::InPlace { target } => return Output::in_place(path, target, options),
            Plan::Stream(stream) => Sink::Stream(stream),
            Plan::Direct { target } => OpenOptions::new()
                .append(true)
                .open(&target)
                .map(Sink::File)
                .with_context(|| format!("opening {} for writing", path.display()))?,
        };
        Ok(Output {
            sink: BufWriter::with_capacity(1 << 16, sink),
            target: path.to_owned(),
            executable: options.executable,
        })
    }

    /// Truncates and writes the regular file `target` (made if missing).
    fn in_place(path: &Path, target: PathBuf, options: Options) -> Result<Output> {
        match std::fs::metadata(&target) {
            Ok(m) => check_writable(path, &target, &m, options)?,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) => return Err(e).with_context(|| format!("reading {}", target.display())),
        }
        let file = OpenOptions::new()
            .write(true)
            .create(true)
            .truncate(true)
            .open(&target)
            .with_context(|| format!("opening {} for writing", path.display()))?;
        Ok(Output {
            sink: BufWriter::with_capacity(1 << 16, Sink::File(file)),
            target,
            executable: options.executable,
        })
    }

    /// Finishes the write: flushes it, and puts a replacement in place.
    pub fn commit(self) -> Result<()> {
        let wanted = self.executable;
        let target = self.target;
        let sink = self
            .sink
            .into_inner()
            .map_err(|e| e.into_error())
            .with_context(|| format!("writing {}", target.display()))?;
        let executable = |file: &File| -> Result<()> {
            if wanted {
                make_executable(file)
                    .with_context(|| format!("making {} executable", target.display()))?;
            }
            Ok(())
        };
        match sink {
            Sink::File(mut file) => {
                file.flush()
                    .with_context(|| format!("writing {}", target.display()))?;
                executable(&file)
            }
            mut sink @ Sink::Stream(_) => sink
                .flush()
                .with_context(|| format!("writing {}", target.display())),
            Sink::Temp { file, keep } => {
                if let Some(m) = &keep {
                    keep_owner_and_mode(file.as_file(), m).with_context(|| {
                        format!("keeping the permissions of {}", target.display())
                    })?;
                }
                executable(file.as_file())?;
                file.persist(&target)
                    .map_err(|e| e.error)
                    .with_context(|| format!("replacing {}", target.display()))?;
                Ok(())
            }
        }
    }
}

/// Refuses `-` as a file to write to (bad usage), so that a command can say
/// so before it reads anything.
pub fn refuse_dash(path: &Path) -> Result<()> {
    if path.as_os_str() == "-" {
        return Err(Failure::usage(
            "`-` is not a file to write to",
            "name a file; to write to the standard output, name /dev/stdout",
        )
        .into());
    }
    Ok(())
}

/// Writes `bytes` to `path` ([`Output`]).
pub fn write_file(path: &Path, bytes: &[u8], options: Options) -> Result<()> {
    let mut out = Output::create(path, options)?;
    out.write_all(bytes)
        .with_context(|| format!("writing {}", path.display()))?;
    out.commit()
}

/// How `path` is to be written, after following its symbolic links.
fn plan(path: &Path) -> Result<Plan> {
    let mut at = path.to_owned();
    for _ in 0..=MAX_LINKS {
        // The folders on the way are resolved first (`/dev/fd` is a link),
        // so that only the last name is left to look at.
        if let (Some(name), Ok(dir)) = (at.file_name(), std::fs::canonicalize(folder_of(&at))) {
            at = dir.join(name);
        }
        let m = match std::fs::symlink_metadata(&at) {
            Ok(m) => m,
            Err(e) if e.kind() == io::ErrorKind::NotFound => {
                return Ok(Plan::Replace { target: at });
            }
            Err(e) => return Err(e).with_context(|| format!("reading {}", at.display())),
        };
        let ty = m.file_type();
        if ty.is_symlink() {
            // `/dev/stdout` and `/dev/fd/N` lead to `/proc/self/fd/N`, whose
            // "link" is the descriptor itself, not a path to follow.
            if at.starts_with("/proc") {
                return Ok(own_stream(&at).map_or_else(
                    || Plan::Direct {
                        target: path.to_owned(),
                    },
                    Plan::Stream,
                ));
            }
            let to = std::fs::read_link(&at)
                .with_context(|| format!("reading the link {}", at.display()))?;
            at = folder_of(&at).join(to);
        } else if ty.is_file() {
            return Ok(if m.nlink() > 1 {
                Plan::InPlace { target: at }
            } else {
                Plan::Replace { target: at }
            });
        } else if ty.is_dir() {
            return Err(Failure::io(
                Code::WriteRefused,
                format!("{} is a folder, not a file", path.display()),
                "name a file in it",
            )
            .into());
        } else {
            return Ok(Plan::Direct { target: at });
        }
    }
    Err(Failure::io(
        Code::IoError,
        format!(
            "{} goes through more than {MAX_LINKS} symbolic links",
            path.display()
        ),
        "a link probably leads back to itself; name the file directly",
    )
    .into())
}

/// Whether `/proc/...` names this process's descriptor 1 or 2.
fn own_stream(at: &Path) -> Option<StdStream> {
    let pid = std::process::id().to_string();
    let fd = at
        .strip_prefix("/proc/self/fd")
        .or_else(|_| at.strip_prefix(Path::new("/proc").join(&pid).join("fd")))
        .ok()?;
    match fd.to_str()? {
        "1" => Some(StdStream::Out),
        "2" => Some(StdStream::Err),
        _ => None,
    }
}

/// The folder a path is in (`.` for a bare name).
fn folder_of(path: &Path) -> &Path {
    path.parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
}

/// Refuses a read-only file (unless forced) and one this user may not write.
fn check_writable(path: &Path, target: &Path, m: &Metadata, options: Options) -> Result<()> {
    if options.force {
        return Ok(());
    }
    let is_link = std::fs::symlink_metadata(path).is_ok_and(|m| m.file_type().is_symlink());
    let shown = if is_link {
        format!("{} (the file {})", path.display(), target.display())
    } else {
        path.display().to_string()
    };
    if m.permissions().readonly() {
        return Err(Failure::io(
            Code::WriteRefused,
            format!("{shown} is read-only"),
            "make it writable (chmod u+w), or pass --force to rewrite it anyway",
        )
        .into());
    }
    if let Err(e) = OpenOptions::new().write(true).open(target) {
        if e.kind() == io::ErrorKind::PermissionDenied {
            return Err(Failure::io(
                Code::WriteRefused,
                format!("{shown} may not be written by this user"),
                "ask its owner, or pass --force to replace it if its folder lets you",
            )
            .into());
        }
    }
    Ok(())
}

/// Whether a file this process made (`ours`) can be given the owner of `m`:
/// it has it already, or this process may change it (as root).
fn owner_can_be_kept(ours: &File, m: &Metadata) -> io::Result<bool> {
    let uid = ours.metadata()?.uid();
    Ok(uid == m.uid() || uid == 0)
}

/// Adds the execute permission to `file` wherever it has the read permission.
fn make_executable(file: &File) -> io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    let mode = file.metadata()?.permissions().mode();
    let exec = (mode & 0o444) >> 2;
    file.set_permissions(std::fs::Permissions::from_mode(mode | exec))
}

/// Gives `file` the permissions of `m`, and its owner and group (only as
/// far as this process may: a group it belongs to, any owner as root).
fn keep_owner_and_mode(file: &File, m: &Metadata) -> io::Result<()> {
    let now = file.metadata()?;
    if now.uid() != m.uid() || now.gid() != m.gid() {
        let uid = (now.uid() != m.uid()).then_some(m.uid());
        // A group we may not give the file is not worth failing the write for.
        let _ = std::os::unix::fs::fchown(file, uid, Some(m.gid()));
    }
    file.set_permissions(m.permissions())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn devices_and_the_standard_streams_are_written_directly() {
        assert_eq!(
            plan(Path::new("/dev/null")).ok(),
            Some(Plan::Direct {
                target: PathBuf::from("/dev/null")
            })
        );
        assert_eq!(
            plan(Path::new("/dev/stdout")).ok(),
            Some(Plan::Stream(StdStream::Out))
        );
        assert_eq!(
            plan(Path::new("/dev/stderr")).ok(),
            Some(Plan::Stream(StdStream::Err))
        );
        assert_eq!(
            plan(Path::new("/dev/fd/0")).ok(),
            Some(Plan::Direct {
                target: PathBuf::from("/dev/fd/0")
            })
        );
    }
}
