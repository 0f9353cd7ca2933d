"""
``python -m persian_rummy``: the same as the ``persian-rummy`` command.
"""

import sys

from .cli import main

sys.exit(main())
