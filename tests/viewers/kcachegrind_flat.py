#!/usr/bin/env python3
"""Reads KCachegrind's flat profile off a screenshot (tesseract OCR).

usage: kcachegrind_flat.py SHOT.png [SHOT.png ...]   (the first 30 rows of each)
       kcachegrind_flat.py --ready SHOT.png    (exit 0 when the flat profile is drawn)

The screenshot is of the top left 720x960 of KCachegrind alone on a 2400x1400 Xvfb screen with
a fresh configuration (tests/integration/viewers_kcachegrind.sh): the flat profile is the dock
at the left, its columns Incl. (percent, a bar at its left), Self, Called, Function (a coloured
square at its left, names cut at the dock's edge). The header's separators are found in the row of the
header; the function KCachegrind selects at start is drawn white on blue: that row is turned
black on white first, the saturated cost bars white. Each column is cropped, scaled 3x, thresholded and read by tesseract
(TSV, so that every word keeps its row). Prints one JSON object per file:
{"file", "rows": [{"incl", "self", "called", "name"}]} (strings as read; "called" empty when
the cell is). A screenshot whose flat profile (every pixel read) is that of an earlier one
gets the earlier one's rows without a second reading (tesseract is most of the time).
"""
import hashlib
import json
import os
import re
import subprocess
import sys

SCALE = int(os.environ.get("TK_OCR_SCALE", "3"))  # a second reading of a shot takes another
BORDER = 8  # px of white around each crop (unscaled)
# the rows' pitch in px: 19 at Qt's 96 dpi, 20 with QT_FONT_DPI=120 (the second rendering of
# tests/integration/viewers_kcachegrind.sh: other glyphs, other misreads)
ROW = int(os.environ.get("TK_OCR_ROW", "19"))
# where the Incl. number is read from (right of the bar of a row below 100 %) and how much of
# the names: wider glyphs at 120 dpi start further left and run further right
INCL_X = int(os.environ.get("TK_OCR_INCL_X", "36"))
NAME_W = int(os.environ.get("TK_OCR_NAME_W", "100"))
# the first row's top below the header's separators (its glyphs start 9 px below at 96 dpi,
# 7 px at 120)
TOP = int(os.environ.get("TK_OCR_TOP", "9"))


def image(path, geometry):
    """The colours of a crop as rows of '#RRGGBB' strings (one ImageMagick call; its raw
    8-bit pixels, which Python formats faster than ImageMagick writes its text format)."""
    out = subprocess.run(["convert", path, "-crop", geometry, "+repage", "-depth", "8", "ppm:-"],
                         capture_output=True, check=True).stdout
    m = re.match(rb"P6\s+(\d+)\s+(\d+)\s+255\s", out)
    w, h = int(m.group(1)), int(m.group(2))
    px = ["#%02X%02X%02X" % c for c in zip(*[iter(out[m.end():m.end() + 3 * w * h])] * 3)]
    return [px[y * w:(y + 1) * w] for y in range(h)]


def header(img):
    """(y of the header row, [x of each column separator after the first]) of the flat
    profile: the first row with four separators (grey on the header's grey)."""
    for y, row in enumerate(img):
        seps = [x for x in range(2, len(row) - 1)
                if row[x] in ("#C8C8C8", "#B8B8B8") and row[x - 1] == "#EFEFEF"]
        if len(seps) >= 4:
            return y, seps[1:]
    raise SystemExit("no flat profile header found (KCachegrind not drawn yet?)")


def ocr_column(path, x0, x1, top, sel, digits, height):
    # saturated pixels (cost bars, colour squares, the selection's blue) white; in the row
    # KCachegrind selects (white on blue) the rest inverted: black text on white everywhere
    fx = "saturation > 0.3 ? 1 : u"
    if sel:
        fx = f"j >= {sel[0] - top} && j <= {sel[1] - top} ? (intensity > 0.65 ? 0 : 1) : ({fx})"
    cmd = ["convert", path, "-crop", f"{x1 - x0}x{height}+{x0}+{top}", "+repage", "-fx", fx]
    cmd += ["-colorspace", "Gray", "-resize", f"{SCALE * 100}%", "-threshold", "55%"]
    # a white margin: tesseract misreads digits that touch the crop's edge (a narrow Incl.
    # column's "75.90" read as "9.90")
    cmd += ["-bordercolor", "white", "-border", str(BORDER * SCALE), "png:-"]
    img = subprocess.run(cmd, capture_output=True, check=True).stdout
    t = ["tesseract", "stdin", "stdout", "--psm", "6"]
    if digits:
        t += ["-c", "tessedit_char_whitelist=0123456789.,()% "]
    tsv = subprocess.run(t + ["tsv"], input=img, capture_output=True, check=True).stdout
    words = {}
    for line in tsv.decode().split("\n")[1:]:
        f = line.split("\t")
        if len(f) < 12 or not f[11].strip():
            continue
        y = (int(f[7]) + int(f[9]) / 2) / SCALE - BORDER
        words.setdefault(int(y // ROW), []).append((int(f[6]), f[11]))
    return {k: " ".join(w for _, w in sorted(v)) for k, v in words.items()}


def pixels(path, geometry):
    """A digest of the pixels of a crop."""
    out = subprocess.run(["convert", path, "-crop", geometry, "+repage", "rgb:-"],
                         capture_output=True, check=True).stdout
    return hashlib.sha256(out).hexdigest()


def read(path, nrows, seen):
    y, seps = header(image(path, "330x220+0+0"))
    top = y + TOP                     # the rows start below the header
    # everything read below lies within the header's rows and columns
    key = (y, tuple(seps), pixels(path, f"{seps[2] + 18 + NAME_W}x{top + nrows * ROW}+0+0"))
    if key in seen:
        return seen[key]
    column = image(path, f"1x{nrows * ROW}+{seps[2] + 60}+{top}")
    sel = [top + i for i, c in enumerate(column) if c and c[0] == "#308CC6"]
    sel = (min(sel), max(sel)) if sel else None
    h = nrows * ROW
    # the Incl. cell: a bar in its first 32 px, the number right of it (none when KCachegrind
    # made the column too narrow for it: "")
    incl = ocr_column(path, INCL_X, seps[0], top, sel, True, h) if seps[0] - INCL_X >= 30 else {}
    self_ = ocr_column(path, seps[0] + 1, seps[1], top, sel, True, h)
    called = ocr_column(path, seps[1] + 1, seps[2], top, sel, True, h)
    names = ocr_column(path, seps[2] + 18, seps[2] + 18 + NAME_W, top, sel, False, h)
    rows = []
    for k in sorted(set(incl) | set(self_) | set(names)):
        rows.append({"incl": (incl.get(k) or "-").split()[-1],
                     "self": (self_.get(k) or "-").split()[-1],
                     "called": called.get(k, ""),
                     "name": names.get(k, "")})
    seen[key] = rows
    return rows


if __name__ == "__main__":
    if sys.argv[1] == "--ready":      # exit 0 when the flat profile has its header and a row
        try:
            y, seps = header(image(sys.argv[2], "330x220+0+0"))
        except SystemExit:
            sys.exit(1)
        row = image(sys.argv[2], f"1x1+{seps[1] - 5}+{y + 18}")
        sys.exit(0 if row and row[0][0] not in ("#EFEFEF",) else 1)
    seen = {}
    for p in sys.argv[1:]:
        print(json.dumps({"file": p, "rows": read(p, 30, seen)}))
