#!/usr/bin/env python3
"""Opens HTML pages in headless Chromium, through the DevTools protocol
over a pipe (--remote-debugging-pipe: no port, no websocket module), and
says whether each one is well:

  - it loads, and nothing is logged to its console: no script error, no
    console message, no refused load (the page's Content-Security-Policy
    would log one for anything it tried to fetch);
  - it asks for nothing but itself: no request for any other URL;
  - every <svg> on it draws: a screenshot of each one's box is not blank
    (more than a few pixels differ from its background colour), checked
    by decoding the PNG here (zlib, no imaging library).

    html-browser.py CHROMIUM PAGE.html[=N]... [--shots DIR]

PAGE.html=N also wants at least N <svg> on the page (a diagram, charts).

With --shots, each page is also saved whole as DIR/NAME-K.png, 1280 px
wide in slices of 1600 px, for a person to look at.  Prints "ok: ..." or
"FAIL: ..." a check and exits 1 when one failed, 77 when Chromium cannot
be started at all.
"""
import base64
import json
import os
import struct
import subprocess
import sys
import tempfile
import time
import zlib

TIMEOUT = 60


class Browser:
    def __init__(self, chromium):
        self.profile = tempfile.TemporaryDirectory()
        r1, w1 = os.pipe()   # ours -> chromium's fd 3
        r2, w2 = os.pipe()   # chromium's fd 4 -> ours
        args = [chromium, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                "--no-first-run", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--hide-scrollbars",
                "--remote-debugging-pipe", "--user-data-dir=" + self.profile.name,
                "--window-size=1280,1024", "about:blank"]

        def fds():
            os.dup2(r1, 3)
            os.dup2(w2, 4)
        self.proc = subprocess.Popen(args, pass_fds=(3, 4), preexec_fn=fds,
                                     stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        os.close(r1)
        os.close(w2)
        self.out = os.fdopen(w1, "wb")
        self.inp = os.fdopen(r2, "rb")
        self.buf = b""
        self.next_id = 0
        self.events = []

    def send(self, method, params=None, session=None):
        self.next_id += 1
        msg = {"id": self.next_id, "method": method, "params": params or {}}
        if session:
            msg["sessionId"] = session
        self.out.write(json.dumps(msg).encode() + b"\0")
        self.out.flush()
        while True:
            m = self.read()
            if m.get("id") == self.next_id:
                if "error" in m:
                    raise RuntimeError("%s: %s" % (method, m["error"]))
                return m.get("result", {})

    def read(self):
        deadline = time.time() + TIMEOUT
        while b"\0" not in self.buf:
            if time.time() > deadline:
                raise TimeoutError("no answer from Chromium")
            chunk = os.read(self.inp.fileno(), 1 << 16)
            if not chunk:
                raise EOFError("Chromium closed its pipe")
            self.buf += chunk
        raw, self.buf = self.buf.split(b"\0", 1)
        m = json.loads(raw)
        if "method" in m:
            self.events.append(m)
        return m

    def wait_event(self, method, session):
        deadline = time.time() + TIMEOUT
        while True:
            for e in self.events:
                if e["method"] == method and e.get("sessionId") == session:
                    return e
            if time.time() > deadline:
                raise TimeoutError("no %s" % method)
            self.read()

    def close(self):
        try:
            self.send("Browser.close")
        except Exception:
            pass
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()
        self.profile.cleanup()


def png_pixels(data):
    """(width, height, rows of RGB(A) bytes) of an 8-bit RGB or RGBA PNG."""
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    pos, idat, width = 8, b"", 0
    while pos < len(data):
        n, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + n]
        if kind == b"IHDR":
            width, height, depth, ctype = struct.unpack(">IIBB", body[:10])
            assert depth == 8 and ctype in (2, 6), "PNG of depth %d type %d" % (depth, ctype)
            bpp = 3 if ctype == 2 else 4
        elif kind == b"IDAT":
            idat += body
        pos += 12 + n
    raw = zlib.decompress(idat)
    stride = width * bpp
    rows, prev = [], bytearray(stride)
    for y in range(height):
        f = raw[y * (stride + 1)]
        line = bytearray(raw[y * (stride + 1) + 1:(y + 1) * (stride + 1)])
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if f == 1:
                line[i] = (line[i] + a) & 255
            elif f == 2:
                line[i] = (line[i] + b) & 255
            elif f == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif f == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(bytes(line))
        prev = line
    return width, height, bpp, rows


def drawn_share(png):
    """The share of pixels that are not the background (the most common colour)."""
    w, h, bpp, rows = png_pixels(png)
    counts = {}
    for row in rows:
        for i in range(0, len(row), bpp):
            px = row[i:i + 3]
            counts[px] = counts.get(px, 0) + 1
    return 1 - max(counts.values()) / float(w * h) if w * h else 0


BOXES = """JSON.stringify(Array.from(document.querySelectorAll('svg')).filter(
  s => !s.parentElement.closest('svg')).map(s => {
    const r = s.getBoundingClientRect();
    return {x: r.left + scrollX, y: r.top + scrollY, w: r.width, h: r.height,
            cls: s.getAttribute('class') || ''};
  }))"""


def check_page(br, path, shots, want):
    failures = []
    name = os.path.basename(path)
    t = br.send("Target.createTarget", {"url": "about:blank"})
    s = br.send("Target.attachToTarget", {"targetId": t["targetId"], "flatten": True})["sessionId"]
    for domain in ("Page", "Runtime", "Log", "Network"):
        br.send(domain + ".enable", session=s)
    br.events.clear()
    url = "file://" + os.path.abspath(path)
    br.send("Page.navigate", {"url": url}, session=s)
    br.wait_event("Page.loadEventFired", s)
    # what the page logged or asked for, once it settled
    time.sleep(0.3)
    while True:
        try:
            os.set_blocking(br.inp.fileno(), False)
            chunk = os.read(br.inp.fileno(), 1 << 16)
        except BlockingIOError:
            chunk = b""
        finally:
            os.set_blocking(br.inp.fileno(), True)
        if not chunk:
            break
        br.buf += chunk
        while b"\0" in br.buf:
            raw, br.buf = br.buf.split(b"\0", 1)
            m = json.loads(raw)
            if "method" in m:
                br.events.append(m)
    for e in br.events:
        if e.get("sessionId") != s:
            continue
        p = e.get("params", {})
        if e["method"] == "Runtime.consoleAPICalled":
            failures.append("console.%s: %s" % (p.get("type"), json.dumps(p.get("args"))[:200]))
        elif e["method"] == "Runtime.exceptionThrown":
            failures.append("exception: %s" % json.dumps(p.get("exceptionDetails"))[:200])
        elif e["method"] == "Log.entryAdded":
            entry = p.get("entry", {})
            failures.append("log %s: %s" % (entry.get("level"), entry.get("text", "")[:200]))
        elif e["method"] == "Network.requestWillBeSent":
            req = p.get("request", {}).get("url", "")
            if req != url:
                failures.append("asked for %s" % req[:200])
    boxes = json.loads(br.send("Runtime.evaluate", {"expression": BOXES, "returnByValue": True},
                               session=s)["result"]["value"])
    if len(boxes) < want:
        failures.append("%d <svg> on the page, not %d" % (len(boxes), want))
    blank = 0
    for k, b in enumerate(boxes):
        if b["w"] < 2 or b["h"] < 2:
            failures.append("svg %d (%s) has no size: %gx%g" % (k, b["cls"], b["w"], b["h"]))
            continue
        # at a quarter of the pixels: lines and text still show, and decoding here is fast
        clip = {"x": b["x"], "y": b["y"], "width": min(b["w"], 1600), "height": min(b["h"], 1600),
                "scale": 0.5}
        shot = br.send("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                  "captureBeyondViewport": True}, session=s)
        share = drawn_share(base64.b64decode(shot["data"]))
        # a chart or a diagram has lines and text; a blank box has its background alone
        if share < 0.005:
            failures.append("svg %d (%s) is blank: %.4f%% of its pixels drawn"
                            % (k, b["cls"], 100 * share))
            blank += 1
    if shots:
        height = br.send("Runtime.evaluate", {"expression": "document.documentElement.scrollHeight",
                                              "returnByValue": True}, session=s)["result"]["value"]
        for k, y in enumerate(range(0, int(height), 1600)):
            clip = {"x": 0, "y": y, "width": 1280, "height": min(1600, height - y), "scale": 1}
            shot = br.send("Page.captureScreenshot", {"format": "png", "clip": clip,
                                                      "captureBeyondViewport": True}, session=s)
            with open(os.path.join(shots, "%s-%d.png" % (name.rsplit(".", 1)[0], k)), "wb") as f:
                f.write(base64.b64decode(shot["data"]))
    br.send("Target.closeTarget", {"targetId": t["targetId"]})
    return failures, len(boxes)


def main(argv):
    shots = None
    if "--shots" in argv:
        i = argv.index("--shots")
        shots = argv[i + 1]
        del argv[i:i + 2]
    chromium, pages = argv[1], argv[2:]
    try:
        br = Browser(chromium)
        br.send("Browser.getVersion")
    except (OSError, EOFError, TimeoutError) as e:
        print("SKIP: %s does not start: %s" % (chromium, e))
        return 77
    bad = 0
    try:
        for arg in pages:
            page, _, want = arg.partition("=")
            failures, nsvg = check_page(br, page, shots, int(want or 0))
            for f in failures:
                print("FAIL: %s: %s" % (page, f))
            if failures:
                bad += 1
            else:
                print("ok: %s: loads with no console message and no request, %d SVG drawn"
                      % (page, nsvg))
    finally:
        br.close()
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
