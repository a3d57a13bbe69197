"""The compiled profiles (replayer/profiles/compiled.json): equal to the YAML, and never used when stale."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from conftest import GAMES

from replayer import rules


def _yaml_data(name: str) -> object:
    import yaml

    return yaml.safe_load((rules._profile_folder() / f"{name}.yaml").read_text(encoding="utf-8"))


def test_compiled_profiles_are_up_to_date() -> None:
    """Every shipped profile is compiled from its YAML as it is now (run `python -m replayer.rules` if not)."""
    shipped = json.loads((rules._profile_folder() / "compiled.json").read_text(encoding="utf-8"))
    assert shipped == rules.compile_profiles(), "stale replayer/profiles/compiled.json: run python -m replayer.rules"
    assert sorted(shipped) == rules.profile_names()


@pytest.mark.parametrize("name", rules.profile_names())
def test_compiled_data_is_what_yaml_reads(name: str) -> None:
    entry = rules.compile_profiles()[name]
    assert entry["data"] == _yaml_data(name)
    # the order of the keys is kept too: options and melds are listed in the YAML's order
    assert json.dumps(entry["data"]) == json.dumps(_yaml_data(name))


def test_a_stale_entry_is_not_used(monkeypatch: pytest.MonkeyPatch) -> None:
    """A YAML edited after compiling (its hash differs) is read from the YAML."""
    raw = (rules._profile_folder() / "classic.yaml").read_bytes()
    wrong = {"classic": {rules._HASH: rules._digest(raw), "data": {"name": "not what the YAML says"}}}
    monkeypatch.setattr(rules, "_compiled", lambda: wrong)
    edited = raw.replace(b"\n", b"\n\n", 1)
    assert rules._shipped_data("classic", edited) == _yaml_data("classic")
    assert rules._shipped_data("classic", raw) == {"name": "not what the YAML says"}  # the same bytes: compiled


def test_a_missing_or_broken_compiled_file_falls_back_to_yaml(monkeypatch: pytest.MonkeyPatch, tmp_path) -> None:  # type: ignore[no-untyped-def]
    for content in (None, "{ not json", "[1, 2]"):
        folder = tmp_path / str(hash(content))
        folder.mkdir()
        for name in rules.profile_names():
            (folder / f"{name}.yaml").write_bytes((rules._profile_folder() / f"{name}.yaml").read_bytes())
        if content is not None:
            (folder / "compiled.json").write_text(content, encoding="utf-8")
        monkeypatch.setattr(rules, "_profile_folder", lambda folder=folder: folder)
        rules._compiled.cache_clear()
        try:
            assert rules._compiled() == {}
            assert rules._shipped_data("classic", (folder / "classic.yaml").read_bytes()) == _yaml_data("classic")
        finally:
            rules._compiled.cache_clear()


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
        "import sys; import replayer.cli, replayer.cards, replayer.errors, replayer.rules, replayer.melds; "
        "replayer.rules.load_rules('classic'); "
        "loaded = [m for m in ('dataclasses', 'inspect', 'typing', 'argparse') if m in sys.modules]; "
        "assert not loaded, loaded"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
