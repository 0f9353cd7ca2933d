"""
The table server end to end (``nox -s server``): a real browser, restarts and hostile clients.
"""
