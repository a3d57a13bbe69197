"""The translators' tool: extract the lessons' messages and the profiles' texts, update each language's catalogue
and compile it.

    python -m replayer.lesson.catalogue           # after editing words.py, or a profile's title, description, source
                                                  # or option texts: rewrites locale/bezique.pot, each .po and .mo
    python -m replayer.lesson.catalogue --check   # exit 1 when a catalogue is stale or has a message untranslated

The messages come from :data:`replayer.lesson.words.MESSAGES` through Babel's own extractor (the keywords ``M`` and
``P`` are gettext's ``pgettext`` and ``npgettext``: a key for context, then the text), so ``pybabel extract -k M:1c,2
-k P:1c,2,3`` finds the same. A profile's texts are those of its YAML file, under the context ``profile NAME
FIELD``. A new catalogue gets its plural forms from CLDR through Babel (``Catalog(locale=...)``). Babel is needed
here only, never to render: the compiled ``.mo`` files are read with the standard library (``pip install '.[i18n]'``
brings Babel).
"""

from __future__ import annotations

import argparse
import datetime
import gettext
import io
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_file
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po, write_po

from ..profiles import load_profile, profile_names
from .words import DOMAIN, LANGUAGES, LOCALE_DIR

__all__ = ["check", "main", "profile_messages", "template", "update"]

_KEYWORDS = {"M": ((1, "c"), 2), "P": ((1, "c"), 2, 3)}
_ROOT = Path(__file__).resolve().parents[2]
# Fixed dates keep the files the same from one run to the next: git shows what changed, not when.
_DATE = datetime.datetime(2026, 1, 1, tzinfo=datetime.UTC)


def profile_messages() -> Iterator[tuple[str, str, str, str]]:
    """(context, text, file, what) of every profile's texts that a page shows."""
    for name in profile_names():
        profile = load_profile(name)
        where = f"replayer/profiles/{name}.yaml"
        yield f"profile {name} title", profile.title, where, f"{name}: the profile's title"
        yield f"profile {name} description", profile.description, where, f"{name}: its description"
        yield f"profile {name} source", profile.source, where, f"{name}: the sources it follows"
        for option, spec in profile.options.items():
            doc = " ".join(spec.doc.split())
            if doc:
                yield f"profile {name} option {option}", doc, where, f"{name}: what its option {option} does"


def template() -> Catalog:
    """The catalogue template: every message of the lessons and every profile text, untranslated."""
    catalog = Catalog(
        project="bezique-replayer", version="0.1", domain=DOMAIN, creation_date=_DATE, revision_date=_DATE, fuzzy=False
    )
    source = Path(__file__).with_name("words.py")
    where = source.relative_to(_ROOT).as_posix() if source.is_relative_to(_ROOT) else source.name
    for line, message, comments, context in extract_from_file("python", source, _KEYWORDS, ("TRANSLATORS:",)):
        catalog.add(message, locations=[(where, line)], auto_comments=comments, context=context)
    for context, text, path, what in profile_messages():
        catalog.add(text, locations=[(path, 0)], auto_comments=[what], context=context)
    return catalog


def _describe(catalog: Catalog, lang: str) -> None:
    """The catalogue's header: what a translator's tool shows of it."""
    catalog.project, catalog.version = "bezique-replayer", "0.1"
    catalog.revision_date = _DATE
    catalog.fuzzy = False
    catalog.last_translator = "bezique-replayer maintainers"
    catalog.language_team = f"{lang} (the project's translators)"
    catalog.msgid_bugs_address = ""
    catalog.header_comment = (
        f"# The lessons' interface and the profiles' texts in {lang} (replayer/lesson/words.py, replayer/profiles).\n"
        "# Update with: python -m replayer.lesson.catalogue (edit the translations here, then run it to compile)."
    )


def _po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def _read(lang: str) -> Catalog:
    path = _po_path(lang)
    if not path.is_file():
        return Catalog(locale=lang, domain=DOMAIN, creation_date=_DATE, revision_date=_DATE)
    with path.open("rb") as handle:
        return read_po(handle, locale=lang, domain=DOMAIN)


def _written(catalog: Catalog, **options: bool) -> bytes:
    out = io.BytesIO()
    write_po(out, catalog, width=120, **options)
    return out.getvalue()


def _compiled(catalog: Catalog) -> bytes:
    out = io.BytesIO()
    write_mo(out, catalog, use_fuzzy=False)
    return out.getvalue()


def update() -> list[Path]:
    """Rewrite the template, and update and compile the catalogue of every language but English; the files
    written."""
    pot = template()
    LOCALE_DIR.mkdir(parents=True, exist_ok=True)
    written = [LOCALE_DIR / f"{DOMAIN}.pot"]
    written[0].write_bytes(_written(pot, omit_header=False))
    for lang in LANGUAGES[1:]:
        catalog = _read(lang)
        # No fuzzy matching: a changed English text must be translated again, not matched to a similar one.
        catalog.update(pot, no_fuzzy_matching=True)
        _describe(catalog, lang)
        path = _po_path(lang)
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(_written(catalog, ignore_obsolete=True))
        path.with_suffix(".mo").write_bytes(_compiled(catalog))
        written += [path, path.with_suffix(".mo")]
    return written


def check() -> list[str]:
    """What is wrong with the catalogues: a message of the template missing from a catalogue, one untranslated or
    fuzzy, or a ``.mo`` that does not say what its ``.po`` says. Empty when all is well."""
    problems: list[str] = []
    pot = template()
    wanted = {(m.context, m.id if isinstance(m.id, str) else m.id[0]) for m in pot if m.id}
    for lang in LANGUAGES[1:]:
        catalog = _read(lang)
        have = {(m.context, m.id if isinstance(m.id, str) else m.id[0]): m for m in catalog if m.id}
        for key in sorted(wanted - set(have), key=str):
            problems.append(f"{lang}: {key[0]!r} is not in the catalogue")
        for key, message in have.items():
            strings = message.string if isinstance(message.string, (list, tuple)) else [message.string]
            if key in wanted and (message.fuzzy or not all(strings)):
                problems.append(f"{lang}: {key[0]!r} is not translated")
        mo = _po_path(lang).with_suffix(".mo")
        if not mo.is_file():
            problems.append(f"{lang}: {mo.name} is missing")
            continue
        with mo.open("rb") as handle:
            compiled = gettext.GNUTranslations(handle)
        fresh = gettext.GNUTranslations(io.BytesIO(_compiled(catalog)))
        for key, message in have.items():
            if isinstance(message.id, str):
                same = compiled.pgettext(key[0] or "", message.id) == fresh.pgettext(key[0] or "", message.id)
            else:
                same = all(
                    compiled.npgettext(key[0] or "", message.id[0], message.id[1], n)
                    == fresh.npgettext(key[0] or "", message.id[0], message.id[1], n)
                    for n in (1, 2, 5)
                )
            if not same:
                problems.append(f"{lang}: {mo.name} is stale ({key[0]!r}); run python -m replayer.lesson.catalogue")
                break
    return problems


def main(argv: Sequence[str] | None = None) -> int:
    """The command line: update the catalogues, or with ``--check`` report what is stale."""
    parser = argparse.ArgumentParser(prog="python -m replayer.lesson.catalogue", description=__doc__.split("\n")[0])
    parser.add_argument("--check", action="store_true", help="report stale or untranslated messages; change nothing")
    args = parser.parse_args(argv)
    if args.check:
        problems = check()
        for problem in problems:
            print(problem, file=sys.stderr)
        return 1 if problems else 0
    for path in update():
        print(path)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
