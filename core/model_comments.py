"""tortoise's reading of a model's ``#:`` field comments, with each module's source parsed once.

tortoise (1.1) turns the ``#:`` comment above a model field into the field's description, which
the migrations carry (``models/migrations/``). It finds the comments in the model class's source,
got with ``inspect.getsource(cls)``, which on Python 3.11 parses the class's whole module into a
syntax tree and walks it, again for every class: about 0.25 s of every process's start-up, a
fifth of importing the API. :func:`field_comments` is tortoise's ``_get_comments`` with the
syntax tree of each module built once and the class's lines taken from it; importing this module
puts it in tortoise's place. It must give what tortoise's gives for every model
(``tests/core/test_model_comments.py`` compares the two): otherwise ``makemigrations`` would see
changed descriptions.

The rules, in the order the code applies them:

1. The class's lines are those of its ``class`` statement, from its first decorator (where
   ``inspect`` starts) to its last line, in the module's source as ``linecache`` holds it (as
   ``inspect`` reads it).
2. Where that is not found (no source file, a class made at run time), tortoise's own function
   answers.
3. The comments are found with tortoise's pattern, and ``{model}`` in them is the class's name.
   (tortoise repeats the search once per class of the model's MRO on the same source, and the
   model's own name, last, wins: one search gives the same.)
"""

from __future__ import annotations

import ast
import functools
import inspect
import linecache
import re
from typing import Any

import tortoise.models

#: tortoise's function, for what :func:`field_comments` does not find and for the test.
tortoise_comments = tortoise.models._get_comments  # noqa: SLF001 - the function replaced

#: tortoise's pattern: one or more ``#:`` lines, then the name of what they describe.
_COMMENTED = re.compile(r"((?:(?!\n|^)[^\w\n]*#:.*?\n)+?)[^\w\n]*(\w+)\s*[:=]")
_MARKER = re.compile(r"(^\s*#:\s*|\s*$)", flags=re.MULTILINE)


def field_comments(cls: type[Any]) -> dict[str, str]:
    """The model's field comments by field name, as tortoise's ``_get_comments`` gives them."""
    source = _class_source(cls)
    if source is None:
        return tortoise_comments(cls)
    return {name: _MARKER.sub("", comment).replace("{model}", cls.__name__)
            for comment, name in _COMMENTED.findall(source)}


def _class_source(cls: type[Any]) -> str | None:
    try:
        filename = inspect.getsourcefile(cls)
    except TypeError:  # a built-in class
        return None
    if filename is None:
        return None
    spans = _class_spans(filename)
    if spans is None or cls.__qualname__ not in spans:
        return None
    first, last = spans[cls.__qualname__]
    return "".join(linecache.getlines(filename)[first:last])


@functools.lru_cache(maxsize=None)
def _class_spans(filename: str) -> dict[str, tuple[int, int]] | None:
    """Each class of the module by qualified name: its first and last line (0-based, end excluded).
    The first class of a name wins, as ``inspect`` finds it."""
    lines = linecache.getlines(filename)
    if not lines:
        return None
    try:
        tree = ast.parse("".join(lines))
    except SyntaxError:
        return None
    spans: dict[str, tuple[int, int]] = {}
    _collect(tree, [], spans)
    return spans


def _collect(node: ast.AST, path: list[str], spans: dict[str, tuple[int, int]]) -> None:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.ClassDef):
            first = child.decorator_list[0].lineno if child.decorator_list else child.lineno
            spans.setdefault(".".join([*path, child.name]), (first - 1, child.end_lineno or child.lineno))
            _collect(child, [*path, child.name], spans)
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef)):
            _collect(child, [*path, child.name, "<locals>"], spans)
        else:
            _collect(child, path, spans)


tortoise.models._get_comments = field_comments  # noqa: SLF001 - looked up at each class creation
