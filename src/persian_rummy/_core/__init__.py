"""
What every module of the package stands on, importing nothing of the rest of it but
`persian_rummy.exceptions`.

* `persian_rummy._core.version`: the installed version, from the package's metadata.
* `persian_rummy._core.limits`: the longest texts, lists and numbers the package accepts.
* `persian_rummy._core.jsontext`: JSON text read and written within those limits.
* `persian_rummy._core.choices`: the enumerations whose values are read from text.
* `persian_rummy._core.seats`: the seat check, `is_seat`.
* `persian_rummy._core.build`: values built without checks, from values already checked.
* `persian_rummy._core.drawing`: cards and melds drawn in SVG, without their classes.
"""
