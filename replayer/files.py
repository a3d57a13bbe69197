"""Writing files so that nothing is lost: through a temporary file in the same folder and a rename."""

from __future__ import annotations

import os
from pathlib import Path

__all__ = ["write_atomic"]


def _umask() -> int:
    # The process umask can only be read by setting it; set it straight back.
    mask = os.umask(0)
    os.umask(mask)
    return mask


def write_atomic(path: str | Path, data: str | bytes, durable: bool = True) -> None:
    """Replace (or create) a file through a temporary file in the same folder and a rename.

    The file is never half-written. A symbolic link is followed (its target is rewritten); an existing file keeps its
    permissions, and a new one gets the usual ones for the user's umask (``mkstemp`` alone would make it private).
    Text is written as UTF-8, exactly as given (no newline translation). ``durable`` flushes the data to the disk
    before the rename, so that a crash cannot leave an empty file in place of the old one; output that a command can
    make again (a lesson site) skips it, as it costs a few milliseconds a file.
    """
    import tempfile  # here, not at the top: it imports shutil and random, and most commands write nothing

    target = Path(os.path.realpath(path))
    target.parent.mkdir(parents=True, exist_ok=True)
    mode = target.stat().st_mode & 0o7777 if target.exists() else 0o666 & ~_umask()
    fd, tmp = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data.encode("utf-8") if isinstance(data, str) else data)
            if durable:
                handle.flush()
                os.fsync(handle.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
