"""
Fuzzing of every reader of text and data, run as ``nox -s fuzz``.

Each target feeds many generated inputs to one or more readers (`persian_rummy.parse_position`,
`persian_rummy.from_json` and the others) and checks that each call returns a value or raises a
`persian_rummy.PersianRummyError`, within a bounded time, and that what it returns reads back
equal once written.  ``pytest fuzz`` runs the targets; its options (``--inputs``, ``--seed``,
``--time-limit``) are described in ``fuzz/conftest.py``.
"""
