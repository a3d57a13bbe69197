"""Writing the HTML site: an index of games and one lesson page per game (``bezique render``).

This is the only module that imports jinja2. Templates and static files come from ``site_templates/`` (found with
:func:`replayer.notation.data_dir`); the pages refer to nothing outside the output folder, so they work opened
straight from the disk. Every file is written atomically, and a marker file tells a folder the renderer made from
one it must not write into without ``force``.
"""

from __future__ import annotations

import os
import re
import tempfile
from collections.abc import Iterable
from pathlib import Path

from jinja2 import Environment, FileSystemLoader, StrictUndefined

from .lesson import Lesson, build_lesson, interface
from .notation import data_dir
from .replay import ReplayResult

__all__ = ["MARKER", "STATIC_SUFFIXES", "lesson_slug", "make_environment", "render_site"]

MARKER = ".bezique-site"
"""Written into every output folder; a non-empty folder without it is not ours to write into."""

STATIC_SUFFIXES = (".css", ".js", ".svg")
"""The static files copied (the same suffixes the package installs)."""

_MARKER_TEXT = "This folder was written by bezique render; it may be overwritten by the next render.\n"


def make_environment(templates: Path | None = None) -> Environment:
    """The Jinja environment of the site: HTML autoescaping, and an error for any undefined name."""
    folder = templates if templates is not None else data_dir("site_templates")
    return Environment(
        loader=FileSystemLoader(str(folder)),
        autoescape=True,
        undefined=StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
    )


def lesson_slug(path: str, index: int, taken: set[str] | None = None) -> str:
    """The lesson's file name without ``.html``: the record's file name and the game's number (``deal-2``).

    Only ASCII letters, digits and hyphens are kept, so that the links work from any disk and server; a name
    already in ``taken`` gets a suffix (two records may share a file name in different folders).
    """
    stem = Path(path).stem.lower()
    base = re.sub(r"[^a-z0-9]+", "-", stem, flags=re.ASCII).strip("-") or "game"
    slug = f"{base}-{index}"
    candidate, n = slug, 2
    while taken is not None and candidate in taken:
        candidate, n = f"{slug}-{n}", n + 1
    if taken is not None:
        taken.add(candidate)
    return candidate


def _check_output(out: Path, force: bool) -> None:
    if out.exists() and not out.is_dir():
        raise FileExistsError(f"{out} exists and is not a folder; choose another --out")
    if out.is_dir() and not force and not (out / MARKER).is_file() and any(out.iterdir()):
        raise FileExistsError(
            f"{out} is not empty and was not written by bezique render (no {MARKER} file in it); "
            "choose an empty or new folder, or use --force to write into it anyway"
        )


def _write_atomic(path: Path, data: bytes) -> None:
    """Write through a temporary file in the same folder, so that a reader never sees half a page."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        # mkstemp makes the file private (0600); a site is meant to be read by a web server or a colleague.
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _static_files(folder: Path) -> list[Path]:
    if not folder.is_dir():
        return []
    return sorted(p for p in folder.rglob("*") if p.is_file() and p.suffix in STATIC_SUFFIXES)


def render_site(results: Iterable[ReplayResult], out: Path, lang: str = "en", force: bool = False) -> list[Path]:
    """Write ``index.html``, one lesson page per game and the static files into ``out``; returns the files written.

    Raises ``FileExistsError`` when ``out`` is a file, or a non-empty folder without the renderer's marker file
    (unless ``force``), and ``ValueError`` for an interface language other than ``en`` and ``ru``. The marker
    file itself is not in the returned list.
    """
    strings = interface(lang)
    out = Path(out)
    _check_output(out, force)
    templates = data_dir("site_templates")
    env = make_environment(templates)
    taken: set[str] = set()
    lessons: list[Lesson] = []
    for result in results:
        for index, game in enumerate(result.games, start=1):
            lessons.append(build_lesson(game, lang, lesson_slug(result.path, index, taken)))

    out.mkdir(parents=True, exist_ok=True)
    _write_atomic(out / MARKER, _MARKER_TEXT.encode("utf-8"))
    written: list[Path] = []
    context = {"t": strings, "lang": lang}
    index_page = env.get_template("index.html").render(lessons=lessons, **context)
    _write_atomic(out / "index.html", index_page.encode("utf-8"))
    written.append(out / "index.html")
    lesson_template = env.get_template("lesson.html")
    for lesson in lessons:
        page = lesson_template.render(lesson=lesson, **context)
        target = out / f"{lesson.slug}.html"
        _write_atomic(target, page.encode("utf-8"))
        written.append(target)
    static = templates / "static"
    for source in _static_files(static):
        target = out / "static" / source.relative_to(static)
        _write_atomic(target, source.read_bytes())
        written.append(target)
    return written
