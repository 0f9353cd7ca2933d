"""
The engine's hot path, below `persian_rummy.engine`, compiled with mypyc in the compiled build.

* `persian_rummy._engine.enumeration`: legal-move enumeration and the action objects it hands out.
* `persian_rummy._engine.transitions`: one transition per action type, each checking the action and
  building the next state.
"""
