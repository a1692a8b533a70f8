"""tortoise reads the models' ``#:`` comments through core/model_comments.py, and gets what its own
reading gives, for every model of the service and for the shapes of class it finds."""

from __future__ import annotations

import importlib
import importlib.util
import sys
import textwrap

import tortoise.models
from tortoise import fields
from tortoise.models import Model

from core.model_comments import field_comments, tortoise_comments
from models import MODEL_MODULES


def _models() -> list[type[Model]]:
    found = []
    for name in MODEL_MODULES:
        module = importlib.import_module(name)
        found += [value for value in vars(module).values()
                  if isinstance(value, type) and issubclass(value, Model) and value.__module__ == name]
    return found


def test_every_model_of_the_service_gets_the_comments_tortoises_reading_gives():
    # Given every model class of the service's model modules
    models = _models()
    assert len(models) > 50
    # When their comments are read both ways
    # Then they are the same, and the service's models do carry comments
    assert {model.__qualname__: field_comments(model) for model in models} == {
        model.__qualname__: tortoise_comments(model) for model in models}
    assert sum(len(field_comments(model)) for model in models) > 100
    # And it is the reading tortoise uses
    assert tortoise.models._get_comments is field_comments  # noqa: SLF001


def test_decorated_nested_and_templated_classes_read_as_tortoise_reads_them(tmp_path, monkeypatch):
    # Given a module with a decorated class, a class nested in a function, a "{model}" template,
    # an earlier class of the same name as a later one, and a multi-line comment
    source = textwrap.dedent('''
        def keep(cls):
            return cls


        class Probe:
            #: the first Probe's
            early = 1


        class Probe:  # noqa: F811
            #: the second Probe's
            late = 1


        @keep
        class Decorated:
            #: a row of {model}
            #: over two lines
            name: str = "x"
            count = 2  #: not above a field, so not read


        def make():
            class Inner:
                #: inner's
                value = 3
            return Inner
        ''')
    path = tmp_path / "probe_comments.py"
    path.write_text(source)
    monkeypatch.syspath_prepend(str(tmp_path))
    spec = importlib.util.spec_from_file_location("probe_comments", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    monkeypatch.setitem(sys.modules, "probe_comments", module)
    spec.loader.exec_module(module)
    # When each class's comments are read both ways
    for cls in (module.Probe, module.Decorated, module.make()):
        # Then they are the same (for a name used twice, inspect finds the first class of it)
        assert field_comments(cls) == tortoise_comments(cls)
    assert field_comments(module.Probe) == {"early": "the first Probe's"}
    assert field_comments(module.Decorated) == {"name": "a row of Decorated\nover two lines"}
    assert field_comments(module.make()) == {"value": "inner's"}


def test_a_model_without_source_gets_tortoises_answer():
    # Given a model class made at run time (no source to read)
    made = type("Made", (Model,), {"__module__": __name__, "id": fields.IntField(primary_key=True),
                                   "Meta": type("Meta", (), {"abstract": True})})
    # Then both readings answer alike
    assert field_comments(made) == tortoise_comments(made)
