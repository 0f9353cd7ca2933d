"""
The private modules of the core, out of the way of the public ones at the top level.

They are what the public modules are built from: the limits, the checks of arguments, the bit
tables and card logic, the invariants, the builders of values without checks, the engine's hot path
(`persian_rummy._internal.enumeration`, `persian_rummy._internal.transitions`) and positions written
out.  CONTRIBUTING.md's table of the modules says what each is for, in the order they import one
another.  This file imports nothing, so that a module importing one of them loads no other.
"""
