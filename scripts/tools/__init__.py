"""This package's own tools, one module (or one folder) per tool, run by one command: `scripts/tool NAME [OPTIONS]`.

`scripts/tool` with no name lists them; tools/__main__.py is the table of names. The pyramid kit they build on is
scripts/kit/pyramidkit, a package of its own: nothing in the kit imports from here.
"""
