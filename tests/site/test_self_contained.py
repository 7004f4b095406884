"""The repository stands on its own: a clone with nothing beside it has everything its
code, tests, benchmarks and docs name. No file names a path outside the repository (the
founders' `shared` folder beside the checkout, with its vectors, recorded games and rule,
contract and style files, or one machine's absolute paths), and every
`docs/<page>.md#<anchor>` cited anywhere is a heading of that page, as GitHub renders
it. This file spells those names in pieces, so that it does not match itself."""

from __future__ import annotations

import re
import subprocess
from collections import Counter
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

# What a clone does not have, each with a literal start (no \b, no look-behind) so that
# the 9 MB of the repository's files take milliseconds.
OUTSIDE = re.compile(
    r"\.\./shared"
    r"|shared/(?:vectors|bench|seeds|hooks)\b"
    r"|(?:RULES|CONTRACT|STYLE)\.md\b"
    r"|/wor[k]/"
)
CITED = re.compile(r"\bdocs/([\w-]+)\.md#([\w-]+)")
SELF_LINK = re.compile(r"\]\(#([\w-]+)\)")
HEADING = re.compile(r"#{1,6}\s+(.+?)\s*#*\s*$")


def tracked_files() -> list[Path]:
    """Every file git tracks, plus the new ones it does not ignore (not yet added)."""
    try:
        listed = subprocess.run(
            ["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
            cwd=ROOT, capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as exc:
        pytest.fail(f"run the suite from a git checkout of the project: {exc}")
    paths = (ROOT / name for name in listed.decode().split("\0") if name)
    return sorted(path for path in paths if path.is_file())


def text(path: Path) -> str:
    return path.read_bytes().decode("utf-8", errors="replace")


def slug(heading: str) -> str:
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens
    (`## Blockade Run` -> `blockade-run`, ``## Messages on `/ws/games/{id}/` `` ->
    `messages-on-wsgamesid`)."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(page: Path) -> set[str]:
    """The anchors of a Markdown page's headings (a repeated one gets -1, -2, ...)."""
    seen: Counter[str] = Counter()
    fenced = False
    for line in text(page).splitlines():
        if line.startswith("```"):
            fenced = not fenced
            continue
        found = None if fenced else HEADING.fullmatch(line)
        if found is not None:
            base = slug(found[1])
            seen[base] += 1
    return {base if n == 0 else f"{base}-{n}"
            for base, count in seen.items() for n in range(count)}


def test_the_checks_read_what_they_should() -> None:
    for outside in ("see ../" "shared/x", "shared/" "vectors/x.jsonl", "shared/" "bench/x",
                    "RULES" ".md section 6", "(CONTRACT" ".md)", "/wo" "rk/wt/repo/games"):
        assert OUTSIDE.search(outside), outside
    assert not OUTSIDE.search("docs/rules.md#leaving, tests/vectors/x, worker/x")
    assert slug("Blockade Run") == "blockade-run"
    assert slug("Turns, passes and plies") == "turns-passes-and-plies"
    assert slug("Messages on `/ws/games/{id}/`") == "messages-on-wsgamesid"
    assert "leaving" in anchors(ROOT / "docs" / "rules.md")


def test_no_file_names_a_path_outside_the_repository() -> None:
    found = [
        f"{path.relative_to(ROOT)}:{number}: {line.strip()[:120]}"
        for path in tracked_files() if OUTSIDE.search(body := text(path))
        for number, line in enumerate(body.splitlines(), 1)
        if OUTSIDE.search(line)
    ]
    assert not found, (
        "these name files a clone does not have; cite docs/rules.md, docs/api.md or "
        "docs/realtime.md (a section: docs/rules.md#leaving), tests/vectors/ or "
        "bench/games/ instead:\n" + "\n".join(found))


def test_every_cited_docs_section_exists() -> None:
    docs = ROOT / "docs"
    known = {page.stem: anchors(page) for page in docs.glob("*.md")}
    missing = []
    for path in tracked_files():
        if path.suffix not in {".md", ".py", ".js", ".html", ".txt", ".toml", ".po", ""}:
            continue
        body = text(path)
        cited = [(m[1], m[2]) for m in CITED.finditer(body)]
        if path.parent == docs and path.suffix == ".md":
            cited += [(path.stem, m[1]) for m in SELF_LINK.finditer(body)]
        missing += [f"{path.relative_to(ROOT)}: docs/{page}.md#{anchor}"
                    for page, anchor in cited if anchor not in known.get(page, set())]
    assert not missing, "no such page or heading:\n" + "\n".join(missing)
