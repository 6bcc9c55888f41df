#!/usr/bin/env python3
"""The worker notes of a suite against its --json document, whatever GPU
took which file (cugraphrun(1), SUITES).

    suite_notes.py SUITE.json STDERR FILE=STATUS...

Each FILE=STATUS names a file that must end its worker with that status
(3: a CUDA error, 124: a timeout).  Every note "the worker on GPU N left
after FILE (status S); a fresh one runs the remaining files" must name
one of them, with its status, and the GPU the document says the file ran
on; no file has two notes.  On one GPU (every file of the document on
the same device) every such file must have its note: one worker always
has files left to hand on.  On several, a note may be missing, for a
worker whose files the others had all run by the time it left; its file
must still have its result and its device.
"""
import json
import re
import sys

NOTE = re.compile(r"^cugraphrun: note: the worker on GPU (\d+) left after (\S+) "
                  r"\(status (\d+)\); a fresh one runs the remaining files$", re.M)


def main():
    doc = json.load(open(sys.argv[1]))
    err = open(sys.argv[2]).read()
    want = dict((a.split("=")[0], int(a.split("=")[1])) for a in sys.argv[3:])
    files = {f["file"]: f for f in doc["files"]}
    seen = {}
    for gpu, name, status in NOTE.findall(err):
        assert name in want, "a note for %s, which should not end its worker" % name
        assert name not in seen, "two notes for %s" % name
        seen[name] = int(gpu)
        f = files[name]
        assert int(status) == want[name] == f["exit_status"], (name, status, f["exit_status"])
        assert f["device"] == int(gpu), "%s ran on GPU %s, its note says GPU %s" % (
            name, f["device"], gpu)
    for name, status in want.items():
        f = files[name]
        assert f["exit_status"] == status, (name, f["exit_status"])
        assert isinstance(f["device"], int), (name, f["device"])
    devices = {f["device"] for f in doc["files"] if f["device"] is not None}
    if len(devices) == 1:
        missing = sorted(set(want) - set(seen))
        assert not missing, "on one GPU, no note for %s" % missing
    print("notes: %d of %d files, on GPUs %s" % (len(seen), len(want), sorted(devices)))


main()
