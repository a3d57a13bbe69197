"""Atomic writes (``replayer.files.write_atomic``): a file is replaced whole, in a folder made if need be, also
while other processes write beside it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from replayer import files
from replayer.files import write_atomic


def test_a_missing_folder_is_made(tmp_path: Path) -> None:
    target = tmp_path / "a" / "b" / "page.html"
    write_atomic(target, "страница\n")
    assert target.read_bytes() == "страница\n".encode()
    assert [p.name for p in target.parent.iterdir()] == ["page.html"]  # (no temporary file left)


def test_a_folder_another_process_makes_meanwhile(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Several processes write a site's pages: the folder one of them finds missing may be made by another before
    it looks again. The write goes on, into the folder the other made."""
    target = tmp_path / "ru" / "rules-classic.html"
    opened = os.open
    calls = []

    def racing(path: str, flags: int, mode: int = 0o777) -> int:
        calls.append(path)
        if len(calls) == 1:
            try:
                return opened(path, flags, mode)  # (the folder is missing: this fails...)
            finally:
                target.parent.mkdir()  # (...and another process makes it at once)
        return opened(path, flags, mode)

    monkeypatch.setattr(files.os, "open", racing)
    write_atomic(target, b"<html></html>\n")
    assert target.read_bytes() == b"<html></html>\n"
    assert len(calls) == 2


def test_a_folder_that_cannot_be_written_to_is_an_error(tmp_path: Path) -> None:
    blocker = tmp_path / "file"
    blocker.write_text("not a folder\n", encoding="utf-8")
    with pytest.raises(OSError):
        write_atomic(blocker / "page.html", "x")
    assert blocker.read_text(encoding="utf-8") == "not a folder\n"


def test_an_existing_file_keeps_its_permissions(tmp_path: Path) -> None:
    target = tmp_path / "record.bzq"
    target.write_text("old\n", encoding="utf-8")
    target.chmod(0o640)
    write_atomic(target, "new\n")
    assert target.read_text(encoding="utf-8") == "new\n"
    assert target.stat().st_mode & 0o777 == 0o640
