"""``python -m replayer.profiles``: rewrite compiled.json after editing or adding a profile's YAML file."""

from . import write_compiled_profiles

print(f"wrote {write_compiled_profiles()}")
