"""The build step pyproject.toml cannot say: compile the German (and every other) catalogue.

``pip install .`` makes ``companion/locale/<lang>/LC_MESSAGES/companion.mo`` from the ``.po``
parts in ``companion/locale/<lang>/`` with companion/contract/catalogue.py, loaded by its path
(only the standard library): neither Babel nor GNU gettext is needed to build or to run.
"""

import importlib.util
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

HERE = Path(__file__).resolve().parent


def _catalogue_module():
    spec = importlib.util.spec_from_file_location("_companion_catalogue", HERE / "companion" / "contract" / "catalogue.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildWithCatalogues(build_py):
    """build_py, then every language's parts compiled to one .mo in the build."""

    def run(self):
        super().run()
        catalogue = _catalogue_module()
        for lang_dir in sorted((HERE / "companion" / "locale").glob("*/")):
            parts = sorted(lang_dir.glob("*.po"))
            if not parts:
                continue
            target = Path(self.build_lib) / "companion" / "locale" / lang_dir.name / "LC_MESSAGES" / "companion.mo"
            target.parent.mkdir(parents=True, exist_ok=True)
            catalogue.compile_po(parts, target)


setup(cmdclass={"build_py": BuildWithCatalogues})
