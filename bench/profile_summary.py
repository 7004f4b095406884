"""Read py-spy's raw (collapsed) stacks and print where the samples went.

`bench/load.py --profile PREFIX` (and `--continuous`) writes one raw file per server
process: a line per distinct stack, `frame;frame;...;frame COUNT`, each frame
`function (file:line)`. This prints the share of samples that pass through each
function (inclusive, counted once per sample however deep the recursion) and, with
`--own`, the functions the samples were in. `--match TEXT` (repeatable) adds a row for
every sample whose stack contains TEXT anywhere, e.g. a module name; `--under TEXT`
shows only what runs below the first frame containing TEXT; `--group NAME=TEXT`
(repeatable) puts each sample in the first group whose TEXT its stack contains:

    python bench/profile_summary.py /tmp/prof-1234.txt --top 40
    python bench/profile_summary.py /tmp/prof-*.txt --match check_connection --match hello
    python bench/profile_summary.py /tmp/prof-*.txt --under "_hello (" --top 20
    python bench/profile_summary.py /tmp/prof-*.txt --group moves=submit_action \\
        --group sockets=websocket_connect
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

# py-spy's frame: "name (path/to/file.py:123)"; the line is dropped so one function
# counts as one row.
_FRAME = re.compile(r"^(?P<name>.*?) \((?P<file>[^:()]*)(?::\d+)?\)$")
# Files of this checkout are shown from its root ("games/services.py").
_CHECKOUT = f"{Path(__file__).resolve().parents[1]}/"


def _function(frame: str) -> str:
    found = _FRAME.match(frame)
    if found is None:
        return frame
    path = found["file"]
    for marker in ("site-packages/", "python3.11/", _CHECKOUT):
        if marker in path:
            path = path.split(marker, 1)[1]
    return f"{found['name']} ({path})"


def read(paths: list[Path]) -> list[tuple[list[str], int]]:
    stacks = []
    for path in paths:
        for line in path.read_text(errors="replace").splitlines():
            stack, _, count = line.rpartition(" ")
            if stack and count.isdigit():
                stacks.append((stack.split(";"), int(count)))
    return stacks


def below(stacks: list[tuple[list[str], int]], text: str) -> list[tuple[list[str], int]]:
    """The stacks through the first frame containing `text`, cut to what lies below it
    (that frame included): shares are then of the whole profile, the rows of its callees."""
    cut = []
    for frames, count in stacks:
        at = next((i for i, frame in enumerate(frames) if text in frame), None)
        if at is not None:
            cut.append((frames[at:], count))
    return cut


def grouped(stacks: list[tuple[list[str], int]], groups: list[str], total: int) -> list[str]:
    """Every sample in the first group (`NAME=TEXT`, in the order given) whose TEXT its
    stack contains, the rest in "other": shares that add up to 100 %."""
    named = [(g.split("=", 1)[0], g.split("=", 1)[1]) for g in groups]
    counts: Counter[str] = Counter()
    for frames, count in stacks:
        joined = ";".join(frames)
        counts[next((name for name, text in named if text in joined), "other")] += count
    return [f"{100 * counts[name] / total:6.1f} %  {name}"
            for name in [*dict.fromkeys(name for name, _ in named), "other"]]


def summarize(stacks: list[tuple[list[str], int]], top: int, own: bool,
              matches: list[str], total: int | None = None) -> list[str]:
    total = total or sum(count for _, count in stacks)
    inclusive: Counter[str] = Counter()
    selfish: Counter[str] = Counter()
    matched: Counter[str] = Counter()
    for frames, count in stacks:
        functions = [_function(f) for f in frames]
        for name in set(functions):
            inclusive[name] += count
        selfish[functions[-1]] += count
        joined = ";".join(frames)
        for text in matches:
            if text in joined:
                matched[text] += count
    lines = [f"{total} samples"]
    if matches:
        lines += [f"{100 * matched[t] / total:6.1f} %  stacks containing {t!r}" for t in matches]
    table = selfish if own else inclusive
    lines += [f"{100 * n / total:6.1f} %  {name}" for name, n in table.most_common(top)]
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("files", nargs="+", type=Path)
    parser.add_argument("--top", type=int, default=30)
    parser.add_argument("--own", action="store_true", help="own samples, not inclusive")
    parser.add_argument("--match", action="append", default=[],
                        help="also the share of stacks containing this text")
    parser.add_argument("--group", action="append", default=[], metavar="NAME=TEXT",
                        help="repeatable: each sample counts once, in the first group whose "
                             "TEXT its stack contains (then the rest as 'other')")
    parser.add_argument("--under", default="",
                        help="only what runs below the first frame containing this text "
                             "(shares still of every sample)")
    args = parser.parse_args()
    if not (stacks := read(args.files)):
        raise SystemExit("no samples")
    total = sum(count for _, count in stacks)
    if args.under:
        stacks = below(stacks, args.under)
    if args.group:
        print("\n".join([f"{total} samples", *grouped(stacks, args.group, total)]))
        return
    print("\n".join(summarize(stacks, args.top, args.own, args.match, total)))


if __name__ == "__main__":
    main()
