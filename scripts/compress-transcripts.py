#!/usr/bin/env python3
"""Stores transcripts gzip-compressed: NAME.json becomes NAME.json.gz, byte for byte the same text.

    scripts/compress-transcripts.py [--dry-run] PATH...

PATH: transcript files (NAME.json), or folders searched for them (all depths). A transcript is a JSON
object with a "schema_version"; other JSON (Chrome traces, comparisons, aggregates, grade reports,
summaries) is left as it is, and a file given by name that is not a transcript is an error.

Why: committed evidence is read by every labrun command and diagnostic as NAME.json.gz as well as
NAME.json (docs/transcript-fields.md, "Compressed transcripts"), and a transcript compresses about
eight times; the tree that travels to a lent GPU may not exceed 64 MiB.

For each transcript: NAME.json.gz is written (gzip level 9, no name and no time in its header, so
the same text gives the same bytes) through a temporary file, flushed to disk, read back and
decompressed, and only when that gives NAME.json's bytes exactly does it take its name and NAME.json
go. Nothing is overwritten: where NAME.json.gz exists already, NAME.json is removed only when that
file decompresses to its bytes, and is otherwise left with an error. The Markdown and plots beside a
transcript keep their names (NAME.md, NAME.PLOT.svg); labrun finds them from NAME.json.gz as before.

--dry-run says what it would do and changes nothing.

Exit status: 0 done (or nothing to do); 1 a file was left as it was (each says why); 2 usage.
"""

import argparse
import gzip
import json
import os
import sys
import tempfile

sys.dont_write_bytecode = True  # nothing written beside the scripts when they import their module
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "diagnostics"))
# How every diagnostic reads a transcript: gzip told by its magic bytes, one member, bounded.
from transcript_reading import (GZIP_MAGIC, MAX_DECOMPRESSED_BYTES as MAX_BYTES,  # noqa: E402
                                TranscriptReadError, read_transcript_bytes)

SUFFIX = ".json"
COMPRESSED_SUFFIX = ".json.gz"


class Refused(Exception):
    """A file left as it was, and why."""


def is_transcript_text(data):
    try:
        document = json.loads(data.decode("utf-8"))
    except (UnicodeDecodeError, ValueError):
        return False
    return isinstance(document, dict) and "schema_version" in document


def compressed_text(path):
    """The text the gzip file `path` holds (read as the diagnostics read a transcript); Refused where
    it is not gzip, is damaged, or holds more than MAX_BYTES."""
    with open(path, "rb") as handle:
        if handle.read(2) != GZIP_MAGIC:
            raise Refused("%s: not gzip data" % path)
    try:
        return read_transcript_bytes(path)
    except TranscriptReadError as error:
        raise Refused(str(error)) from None


def compress_one(path, dry_run):
    """Compresses the transcript `path` (NAME.json); returns (bytes before, bytes after, whether
    NAME.json.gz was there already)."""
    with open(path, "rb") as source:
        data = source.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise Refused("%s: more than %d bytes" % (path, MAX_BYTES))
    if not is_transcript_text(data):
        raise Refused("%s: not a transcript (no schema_version)" % path)
    target = path[: -len(SUFFIX)] + COMPRESSED_SUFFIX
    if os.path.lexists(target):
        if compressed_text(target) != data:
            raise Refused("%s exists and holds other text; %s is left as it is" % (target, path))
        if not dry_run:
            os.unlink(path)
        return len(data), os.path.getsize(target), True
    packed = gzip.compress(data, compresslevel=9, mtime=0)
    if dry_run:
        return len(data), len(packed), False
    folder = os.path.dirname(path) or "."
    handle, scratch = tempfile.mkstemp(prefix=os.path.basename(target) + ".tmp-", dir=folder)
    try:
        with os.fdopen(handle, "wb") as out:
            out.write(packed)
            out.flush()
            os.fsync(out.fileno())
        os.chmod(scratch, 0o644)
        if compressed_text(scratch) != data:
            raise Refused("%s: the compressed file does not read back as the transcript" % path)
        # link() rather than rename(): it fails where the target appeared meanwhile.
        try:
            os.link(scratch, target)
        except FileExistsError:
            raise Refused("%s appeared while %s was compressed; both are left" % (target, path)) from None
    finally:
        os.unlink(scratch)
    directory = os.open(folder, os.O_RDONLY)
    try:
        os.fsync(directory)
    finally:
        os.close(directory)
    os.unlink(path)
    return len(data), len(packed), False


def transcripts_under(folder):
    found = []
    for root, dirs, names in os.walk(folder):
        dirs.sort()
        for name in sorted(names):
            if name.endswith(SUFFIX) and not name.endswith(".trace.json"):
                path = os.path.join(root, name)
                with open(path, "rb") as source:
                    head = source.read(MAX_BYTES + 1)
                if len(head) <= MAX_BYTES and is_transcript_text(head):
                    found.append(path)
    return found


def main():
    parser = argparse.ArgumentParser(
        description=__doc__.split("\n\n")[0],
        epilog="Exit status: 0 done; 1 a file was left as it was; 2 usage.")
    parser.add_argument("paths", nargs="+", metavar="PATH", help="transcripts (NAME.json) or folders")
    parser.add_argument("--dry-run", action="store_true", help="say what would be done, change nothing")
    args = parser.parse_args()
    files = []
    for path in args.paths:
        if os.path.isdir(path):
            files += transcripts_under(path)
        elif os.path.isfile(path) and path.endswith(SUFFIX):
            files.append(path)
        else:
            parser.error("%s: not a folder or a file named NAME.json" % path)
    status = 0
    before = after = count = 0
    for path in files:
        try:
            old, new, existed = compress_one(path, args.dry_run)
        except (Refused, OSError) as problem:
            print("compress-transcripts: %s" % problem, file=sys.stderr)
            status = 1
            continue
        count += 1
        before += old
        after += new
        verb = ("would write" if args.dry_run else "wrote") if not existed else "already in"
        print("%s -> %s %s (%d -> %d bytes)" % (path, verb, path[: -len(SUFFIX)] + COMPRESSED_SUFFIX, old, new))
    print("compress-transcripts: %d transcript%s, %d -> %d bytes%s" %
          (count, "" if count == 1 else "s", before, after, " (dry run)" if args.dry_run else ""))
    return status


if __name__ == "__main__":
    sys.exit(main())
