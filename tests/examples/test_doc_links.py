"""Every relative link in the README and docs/ opens: the file exists, and a
``#anchor`` names a heading of that file (GitHub's slug rule: lower case, spaces
to hyphens, punctuation other than ``-`` and ``_`` dropped, repeats suffixed -1, -2).

Results pages get restructured; a link into a section that moved must fail here,
not on a reader.
"""

from __future__ import annotations

import re
from collections import Counter
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
LINK = re.compile(r"\]\(([^)\s]+)\)")
FENCE = re.compile(r"^```.*?^```$", flags=re.S | re.M)


def _pages() -> list[Path]:
    return [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]


def slug(heading: str) -> str:
    """GitHub's anchor for a heading's text (markdown markup already in it)."""
    text = heading.strip().lower().replace("`", "")
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


@cache  # each page's headings are read once, however many links point into it
def anchors(page: Path) -> set[str]:
    seen: Counter[str] = Counter()
    out = set()
    for line in FENCE.sub("", page.read_text()).splitlines():
        m = re.match(r"^#{1,6}\s+(.*)$", line)
        if not m:
            continue
        base = slug(m.group(1))
        out.add(base if seen[base] == 0 else f"{base}-{seen[base]}")
        seen[base] += 1
    return out


def test_slug_follows_github():
    assert slug("Leduc: `leduc_nash_fsp`") == "leduc-leduc_nash_fsp"
    assert slug("Speed, and OpenSpiel's ISMCTS") == "speed-and-openspiels-ismcts"


def test_relative_links_resolve():
    broken = []
    for page in _pages():
        for target in LINK.findall(FENCE.sub("", page.read_text())):
            if re.match(r"^[a-z]+:", target):  # http:, https:, mailto:
                continue
            path, _, anchor = target.partition("#")
            dest = (page.parent / path).resolve() if path else page
            if not dest.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such file)")
            elif anchor and dest.suffix == ".md" and anchor not in anchors(dest):
                broken.append(f"{page.relative_to(ROOT)}: {target} (no such heading)")
    assert not broken, "\n".join(broken)
