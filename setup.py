"""The packages of the wheel: isz and its subpackages, and the repository's top-level
``conf/`` shipped inside it as ``isz.conf`` with its yaml files, so that an installed isz
finds its hydra configs (`isz.cli.conf.conf_dir`). Everything else is in pyproject.toml."""

from setuptools import find_namespace_packages, setup

code = find_namespace_packages(include=["isz", "isz.*"], exclude=["*.__pycache__"])
conf = ["isz." + p for p in find_namespace_packages(include=["conf", "conf.*"])]
setup(packages=code + conf, package_dir={"isz.conf": "conf"},
      package_data={p: ["*.yaml"] for p in conf})
