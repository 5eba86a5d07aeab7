"""`warden eval`: retrieval and guard evaluation of a deployment, and the fitted answer gate.

`cases` reads the question files, `retrieval` and `guards` run them through the service's own
retrieval and classification, `metrics` and `calibration` are pure functions over the
results, `report` assembles report.json and `plots` draws the PNGs (matplotlib, Agg).
"""
