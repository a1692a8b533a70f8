"""The README's quick start, the example client and .gitignore agree on the files the quick start writes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _quick_start() -> str:
    readme = (ROOT / "README.md").read_text()
    section = readme.split("A first signed call", 1)[1]
    return section.split("```sh", 1)[1].split("```", 1)[0]


def test_one_credentials_file_name_everywhere():
    block = _quick_start()
    (written,) = set(re.findall(r"--out (\S+)", block))
    # The example client reads what bootstrap wrote, and its usage names the same file
    assert f"examples/first_call.py {written}" in block
    assert f"first_call.py {written}" in (ROOT / "examples" / "first_call.py").read_text()
    # Every file name the README's commands write is ignored by git, and no other name is used
    readme = (ROOT / "README.md").read_text()
    ignored = (ROOT / ".gitignore").read_text().split()
    assert written in ignored
    for name in set(re.findall(r"--credentials (\S+)", readme)):
        assert name == written
    for name in re.findall(r"--(?:store|passphrase-file) \.?/?(\S+)", readme):
        assert name in ignored or f"{name}/" in ignored, name


def test_the_quick_start_waits_for_setup_and_for_the_service():
    block = [line.split("#", 1)[0].strip() for line in _quick_start().splitlines() if line.split("#", 1)[0].strip()]
    # setup runs in the foreground first: the .venv the next lines use exists when they run
    assert block[0] == "scripts/setup" and block[1].startswith("scripts/dev") and block[1].endswith("&")
    assert block[2].startswith(".venv/bin/custody bootstrap") and "--base-url" in block[2]
