"""The compiled profiles (replayer/profiles/compiled.json): equal to the YAML, and never used when stale."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import GAMES

from replayer import profiles


def _yaml_data(name: str) -> object:
    """What the YAML reads, with the base profile it ``extends`` merged in (as the loader does)."""
    import yaml

    raw = (profiles._profile_folder() / f"{name}.yaml").read_bytes()
    where = f"profiles/{name}.yaml"
    return profiles._extended(yaml.safe_load(raw.decode("utf-8")), raw, where, (name,))[0]


def test_compiled_profiles_are_up_to_date() -> None:
    """Every shipped profile is compiled from its YAML as it is now (run `python -m replayer.profiles` if not)."""
    shipped = json.loads((profiles._profile_folder() / "compiled.json").read_text(encoding="utf-8"))
    assert shipped == profiles.compile_profiles(), (
        "stale replayer/profiles/compiled.json: run python -m replayer.profiles"
    )
    assert sorted(shipped) == profiles.profile_names()


@pytest.mark.parametrize("name", profiles.profile_names())
def test_compiled_data_is_what_yaml_reads(name: str) -> None:
    entry = profiles.compile_profiles()[name]
    assert entry["data"] == _yaml_data(name)
    # the order of the keys is kept too: options and melds are listed in the YAML's order
    assert json.dumps(entry["data"]) == json.dumps(_yaml_data(name))


def test_a_stale_entry_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A YAML edited after compiling (its hash differs) is read from the YAML."""
    raw = (profiles._profile_folder() / "classic.yaml").read_bytes()
    wrong = {"classic": {profiles._HASH: profiles._digest(raw), "data": {"name": "not what the YAML says"}}}
    monkeypatch.setattr(profiles, "_compiled", lambda: wrong)
    edited = raw.replace(b"\n", b"\n\n", 1)
    assert profiles._shipped_data("classic", edited) == _yaml_data("classic")
    assert profiles._shipped_data("classic", raw) == {"name": "not what the YAML says"}  # the same bytes: compiled


def test_a_missing_or_broken_compiled_file_falls_back_to_yaml(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    for content in (None, "{ not json", "[1, 2]"):
        folder = tmp_path / str(hash(content))
        folder.mkdir()
        for name in profiles.profile_names():
            (folder / f"{name}.yaml").write_bytes((profiles._profile_folder() / f"{name}.yaml").read_bytes())
        if content is not None:
            (folder / "compiled.json").write_text(content, encoding="utf-8")
        monkeypatch.setattr(profiles, "_profile_folder", lambda folder=folder: folder)
        profiles._compiled.cache_clear()
        try:
            assert profiles._compiled() == {}
            assert profiles._shipped_data("classic", (folder / "classic.yaml").read_bytes()) == _yaml_data("classic")
        finally:
            profiles._compiled.cache_clear()


def test_validate_imports_neither_yaml_nor_lark() -> None:
    """`bezique validate` of a valid classic record starts without the YAML reader, Lark, Jinja, the inference,
    argparse (for its usual arguments) or OpenSSL (the compiled profiles' hash)."""
    unwanted = ("yaml", "lark", "jinja2", "replayer.infer", "argparse", "hashlib", "_hashlib")
    code = (
        "import sys; from replayer.cli import main; status = main(['validate', '-q', sys.argv[1]]); "
        f"loaded = [m for m in {unwanted!r} if m in sys.modules]; "
        "assert not loaded, loaded; sys.exit(status)"
    )
    done = subprocess.run(
        [sys.executable, "-c", code, str(GAMES / "worked-deal-000.bzq")], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_the_modules_every_validation_needs_import_no_dataclasses_nor_typing() -> None:
    """The command line, cards, errors, rule profiles and melds (what any validation loads) make their classes
    without the dataclasses module (which imports inspect) and import neither typing nor argparse: all of it would
    cost a short `bezique validate` a fifth of its start."""
    code = (
        "import sys; import replayer.cli, replayer.cards, replayer.errors, replayer.profile, replayer.profiles; "
        "import replayer.rules; "
        "replayer.profiles.load_profile('classic'); "
        "loaded = [m for m in ('dataclasses', 'inspect', 'typing', 'argparse') if m in sys.modules]; "
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
