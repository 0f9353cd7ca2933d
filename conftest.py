"""
Pytest configuration shared by the tests, the doctests of the package and the Markdown docs.
"""

from __future__ import annotations

import importlib.util
import os

from hypothesis import HealthCheck, settings

collect_ignore = ["src/persian_rummy/__main__.py", "docs/conf.py"]
collect_ignore_glob = ["docs/_build/*"]

#: The modules and pages that need an optional dependency, by the modules they import: without
#: them their doctests are not collected (their test files skip themselves).
NEEDS = {
    "src/persian_rummy/tensors.py": ("numpy",),
    "src/persian_rummy/_rlenv.py": ("numpy", "gymnasium"),
    "src/persian_rummy/gymnasium.py": ("numpy", "gymnasium"),
    "src/persian_rummy/pettingzoo.py": ("numpy", "gymnasium", "pettingzoo"),
    "src/persian_rummy/openspiel.py": ("numpy", "pyspiel"),
    "docs/tensors.md": ("numpy",),
    "docs/reinforcement-learning.md": ("numpy", "gymnasium", "pettingzoo", "pyspiel"),
}
collect_ignore += [
    path for path, modules in NEEDS.items() if any(importlib.util.find_spec(name) is None for name in modules)
]

settings.register_profile("dev", max_examples=60, deadline=None)
# On CI no example database: every run starts afresh, so results never depend on earlier runs.
settings.register_profile(
    "ci",
    max_examples=150,
    deadline=None,
    print_blob=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("thorough", max_examples=2000, deadline=None, suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))
