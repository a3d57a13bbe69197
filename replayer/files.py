"""Writing files so that nothing is lost: through a temporary file in the same folder and a rename."""

from __future__ import annotations

import itertools
import os
from pathlib import Path

__all__ = ["write_atomic"]

_TEMPORARY = itertools.count()
"""Numbers the temporary files of a process (with its id, their names are its own: a forked process has another)."""


def write_atomic(path: str | Path, data: str | bytes, durable: bool = True) -> None:
    """Replace (or create) a file through a temporary file in the same folder and a rename.

    The file is never half-written. A symbolic link is followed (its target is rewritten); an existing file keeps its
    permissions, and a new one gets the usual ones for the user's umask. Missing folders are made. Text is written as
    UTF-8, exactly as given (no newline translation). ``durable`` flushes the data to the disk before the rename, so
    that a crash cannot leave an empty file in place of the old one; output that a command can make again (a lesson
    site) skips it, as it costs a few milliseconds a file.
    """
    target = os.fspath(path)
    # Only the file's own name needs resolving: the system follows the links of the folders above it, and a rename
    # onto a link would replace the link rather than write its target. (A site is some hundred files: each system
    # call saved is saved a hundred times.)
    if os.path.islink(target):
        target = os.path.realpath(target)
    folder, name = os.path.split(target)
    try:
        mode: int | None = os.stat(target).st_mode & 0o7777
    except FileNotFoundError:
        mode = None
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_CLOEXEC", 0)
    made = False
    while True:
        tmp = os.path.join(folder, f".{name}.{os.getpid()}-{next(_TEMPORARY)}.tmp")
        try:
            # A new file is made with the usual permissions (the system applies the umask); an existing file's are
            # set below, before the rename.
            fd = os.open(tmp, flags, 0o666 if mode is None else 0o600)
            break
        except FileExistsError:  # left over by a process of the same id: another name
            continue
        except FileNotFoundError:
            if not folder or made:
                raise
            # The folder is missing, or was until another process (a site's pages are written by several) made it:
            # made if need be, then tried once more.
            os.makedirs(folder, exist_ok=True)
            made = True
    try:
        try:
            view = memoryview(data.encode("utf-8") if isinstance(data, str) else data)
            while view:
                view = view[os.write(fd, view) :]
            if durable:
                os.fsync(fd)
        finally:
            os.close(fd)
        if mode is not None:
            os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
