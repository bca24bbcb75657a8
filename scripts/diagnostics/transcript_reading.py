"""What the diagnostics scripts share for reading labrun transcripts (imported, not run): the JSON
files among paths given on a command line, the transcripts among them, a transcript number that may
be written as a string, and a case's figure in each of its CUDA contexts."""

import json
import math
import os
import statistics


def number(value):
    """A transcript number: JSON has no NaN or infinity, so they are written as strings."""
    if isinstance(value, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}.get(value)
    return value


def context_log_means(case):
    """{context number: the mean log round median of a case's rounds in that CUDA context}, in context
    order; {} before schema 1.8.0, or where a round lacks its context or a positive median."""
    contexts = {}
    for r in case.get("rounds") or []:
        median = number(r.get("median_ms"))
        if r.get("context") is None or median is None or median <= 0:
            return {}
        contexts.setdefault(r["context"], []).append(math.log(median))
    return {k: statistics.fmean(v) for k, v in contexts.items()}


def context_logs(case):
    """The mean log round median of each CUDA context a case's rounds ran in, in context order;
    [] before schema 1.8.0."""
    return list(context_log_means(case).values())


def transcript_files(paths):
    """Every .json file among `paths` (files, or folders searched), Chrome traces left out, sorted."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                files += [os.path.join(root, n) for n in names if n.endswith(".json")]
        else:
            files.append(path)
    return sorted(f for f in files if not f.endswith(".trace.json"))


def read_transcripts(paths, program):
    """(file, document) for every transcript among `paths` (a JSON object with a schema version and
    cases; comparisons, grade reports and aggregates are passed by). A file that cannot be read or
    parsed ends the program, named, with exit status 1."""
    found = []
    for f in transcript_files(paths):
        try:
            with open(f, encoding="utf-8") as handle:
                document = json.load(handle)
        except (OSError, ValueError) as error:
            raise SystemExit(f"{program}: {f}: {error}") from None
        if isinstance(document, dict) and "schema_version" in document and "cases" in document:
            found.append((f, document))
    return found
