"""The report as one HTML page a person opens: self-contained (its style, its few lines of script and its drawings
inside it, nothing fetched), readable with JavaScript off (only the filters need it), written from the same report
the JSON holds (html.py the page, pyramid.py the tiers, coverage.py the lines by tier, mutants.py the mutants)."""
