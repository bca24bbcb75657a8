"""What the diagnostics scripts share for reading labrun transcripts (imported, not run): one
transcript file read, plain JSON or gzip-compressed (NAME.json.gz, told by its first bytes, not its
name), the transcript files among paths given on a command line and the transcripts among them, a
transcript number that may be written as a string, a case's samples round by round, a case's figure in
each of its CUDA contexts, and the 95% interval a run builds from such per-context figures."""

import json
import math
import os
import statistics
import zlib

GZIP_MAGIC = b"\x1f\x8b"
# The most a gzip-compressed transcript may decompress to; more is refused, and no more than this
# (plus one byte) is ever held decompressed. Read at each call, so a test may lower it.
MAX_DECOMPRESSED_BYTES = 64 << 20
TRANSCRIPT_SUFFIXES = (".json", ".json.gz")
TRACE_SUFFIXES = (".trace.json", ".trace.json.gz")


class TranscriptReadError(ValueError):
    """A transcript file that is not what it should be: damaged gzip data, more decompressed than the
    limit, text that is not UTF-8, or text that is not JSON. `path` is the file, `reason` what is wrong
    with it; the message is "PATH: REASON"."""

    def __init__(self, path, reason):
        super().__init__(f"{path}: {reason}")
        self.path, self.reason = path, reason


def _gunzip(path, data, limit):
    """The decompressed bytes of gzip `data`, one member and nothing after it (as labrun reads it,
    src/base/gzip.hpp), refused (TranscriptReadError) where damaged, followed by anything, or more
    than `limit` bytes, without holding more than that."""
    out = bytearray()
    stream = zlib.decompressobj(wbits=31)  # a gzip header and trailer (its CRC and length checked)
    tail = data
    while True:
        try:
            piece = stream.decompress(tail, limit + 1 - len(out))  # at least 1: never 0 (no limit)
        except zlib.error as error:
            raise TranscriptReadError(path, f"damaged gzip data ({error})") from None
        out += piece
        if len(out) > limit:
            raise TranscriptReadError(path, f"gzip data decompresses to more than {limit} bytes (the limit)")
        if stream.eof:
            break
        if not piece and len(stream.unconsumed_tail) == len(tail):
            raise TranscriptReadError(path, "damaged gzip data: it ends before the compressed data does")
        tail = stream.unconsumed_tail
    if stream.unused_data:
        raise TranscriptReadError(path, f"{len(stream.unused_data)} bytes after the gzip data "
                                  "(one compressed file is read, nothing after it)")
    return bytes(out)


def read_transcript_bytes(path, limit=None):
    """A transcript file's bytes, decompressed where they begin with gzip's magic bytes (1f 8b) whatever
    the file's name. `limit`: the most the decompressed data may be (default MAX_DECOMPRESSED_BYTES).
    Raises OSError where the file cannot be read, TranscriptReadError where its gzip data is damaged or
    decompresses to more than the limit."""
    with open(path, "rb") as handle:
        data = handle.read()
    if data.startswith(GZIP_MAGIC):
        return _gunzip(path, data, MAX_DECOMPRESSED_BYTES if limit is None else limit)
    return data


def read_transcript_text(path, limit=None):
    """A transcript file's text (UTF-8), plain or gzip-compressed: read_transcript_bytes, decoded.
    Raises OSError, or TranscriptReadError (also for text that is not UTF-8)."""
    data = read_transcript_bytes(path, limit)
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        raise TranscriptReadError(path, f"not UTF-8 text ({error})") from None


def load_transcript(path, limit=None):
    """A transcript file's JSON document, plain or gzip-compressed. Raises OSError, or
    TranscriptReadError (a ValueError naming the file) for damaged or too large gzip data, text that is
    not UTF-8, or text that is not JSON."""
    text = read_transcript_text(path, limit)
    try:
        return json.loads(text)
    except ValueError as error:
        raise TranscriptReadError(path, f"not JSON ({error})") from None


def is_transcript_name(name):
    """Whether a file name found in a folder search may be a transcript: NAME.json or NAME.json.gz, not
    a Chrome trace (NAME.trace.json, NAME.trace.json.gz)."""
    return name.endswith(TRANSCRIPT_SUFFIXES) and not name.endswith(TRACE_SUFFIXES)


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


def paired_log_ratios(top, bottom):
    """The log ratio of two cases' figures in each CUDA context both ran in, in context order (a run
    pairs a ratio over the contexts its cases share: core/rounds.hpp)."""
    top_logs, bottom_logs = context_log_means(top), context_log_means(bottom)
    return [top_logs[c] - bottom_logs[c] for c in top_logs if c in bottom_logs]


def round_samples(case):
    """(round, its samples) for each of a case's rounds, in order: `samples_ms` holds every round's
    samples one round after another, `rounds[].samples` of them each; [] for a case without rounds."""
    out, offset = [], 0
    for r in case.get("rounds") or []:
        count = int(r.get("samples", 0))
        out.append((r, case["samples_ms"][offset:offset + count]))
        offset += count
    return out


def context_logs(case):
    """The mean log round median of each CUDA context a case's rounds ran in, in context order;
    [] before schema 1.8.0."""
    return list(context_log_means(case).values())


def transcript_files(paths):
    """Every .json and .json.gz file among `paths` (files, or folders searched), Chrome traces
    (.trace.json, .trace.json.gz) left out, sorted."""
    files = []
    for path in paths:
        if os.path.isdir(path):
            for root, _, names in os.walk(path):
                files += [os.path.join(root, n) for n in names if is_transcript_name(n)]
        else:
            files.append(path)
    return sorted(f for f in files if not f.endswith(TRACE_SUFFIXES))


def read_transcripts(paths, program):
    """(file, document) for every transcript among `paths`, plain or gzip-compressed (a JSON object with
    a schema version and cases; comparisons, grade reports and aggregates are passed by). A file that
    cannot be read or parsed, or whose gzip data is damaged or too large, ends the program, named, with
    exit status 1."""
    found = []
    for f in transcript_files(paths):
        try:
            document = load_transcript(f)
        except TranscriptReadError as error:
            raise SystemExit(f"{program}: {error}") from None
        except (OSError, ValueError) as error:
            raise SystemExit(f"{program}: {f}: {error}") from None
        if isinstance(document, dict) and "schema_version" in document and "cases" in document:
            found.append((f, document))
    return found


# Student's t, 0.975 quantile, by degrees of freedom (a degree of freedom between two listed ones takes
# the lower one's quantile, the wider).
T975 = {1: 12.706, 2: 4.303, 3: 3.182, 4: 2.776, 5: 2.571, 6: 2.447, 7: 2.365, 8: 2.306, 9: 2.262,
        10: 2.228, 11: 2.201, 12: 2.179, 13: 2.160, 14: 2.145, 15: 2.131, 16: 2.120, 17: 2.110,
        18: 2.101, 19: 2.093, 20: 2.086, 24: 2.064, 29: 2.045, 39: 2.023}


def t975(df):
    """Student's t, 0.975 quantile, for `df` degrees of freedom (at least 1)."""
    return T975[max(d for d in T975 if d <= df)]


def context_interval(logs, k):
    """(low, high), logarithms: the 95% interval a run builds from a figure's log in each of its C CUDA
    contexts (C >= 2), centred on their mean, half width t(C - 1) s sqrt(1 / C + k^2), with k the
    process allowance (core/statistics.hpp: between_round_interval)."""
    contexts = len(logs)
    centre = statistics.mean(logs)
    half = t975(contexts - 1) * statistics.stdev(logs) * math.sqrt(1.0 / contexts + k * k)
    return centre - half, centre + half
