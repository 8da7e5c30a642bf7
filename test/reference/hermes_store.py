#!/usr/bin/env python3
"""Expected Hermes store counts, computed by Python itself.

Transcribes how NousResearch/hermes-agent reads a store (tools/memory_tool.py at commit
029cfb255c2b6b84f66460cc576e7fe8224bb18c: `MemoryStore._read_file`, the dedupe in
`load_from_disk`, `_char_count`) and runs it on each case written to a real file, so universal
newlines, the BOM, `str.strip()` and `len()` are Python's own. Cases named `hermes:` are the stores
of Hermes' tests/tools/test_memory_tool.py (commit 00e7deebd9ab52d0c4d70a5aebebf68c78709831).

Regenerate: python3 test/reference/hermes_store.py > test/data/hermes-store-cases.json
Corpus stores: python3 test/reference/hermes_store.py --corpus ../shared/corpus/hermes > test/data/hermes-store-corpus.json
"""
import hashlib
import sys
import json
import random
import tempfile
from pathlib import Path

ENTRY_DELIMITER = "\n§\n"


def _read_file(path: Path):
    if not path.exists():
        return []
    raw = path.read_text(encoding="utf-8")
    if not raw.strip():
        return []
    entries = [e.strip() for e in raw.split(ENTRY_DELIMITER)]
    return [e for e in entries if e]


def load(text: str):
    with tempfile.TemporaryDirectory() as d:
        p = Path(d) / "MEMORY.md"
        p.write_bytes(text.encode("utf-8"))
        entries = list(dict.fromkeys(_read_file(p)))  # load_from_disk's dedupe
    chars = len(ENTRY_DELIMITER.join(entries)) if entries else 0  # _char_count
    return entries, chars


CASES = [
    # Hermes' own tests (tests/tools/test_memory_tool.py)
    ("hermes: test_deduplication_on_load", "duplicate entry\n§\nduplicate entry\n§\nunique entry"),
    ("hermes: test_overflow (store before the add)", "x" * 490),
    ("hermes: test_over_limit_file_loads_but_warns", "x" * 600),
    ("hermes: test_over_limit_file_loads_but_warns (short)", "short"),
    ("hermes: test_add_entry", "Python 3.12 project"),
    ("hermes: test_remove_exact_entry_beats_substring_collision", "test\n§\necho-reply tests pass via local twins and are false positives"),
    ("hermes: test_apply_batch_abort_does_not_echo_store", "fact A that is unique and long enough to matter\n§\nfact B stays in the store after the abort"),
    ("hermes: drift block (no delimiters)", "User likes brevity.\n\n## Vendor Master\n" + "x" * 800 + "\n\n## Standing Orders\n" + "y" * 800 + "\n\n## Pin Board\n" + "z" * 800),
    ("hermes: test_add_succeeds_despite_drift", "Existing entry.\nextra content no delimiter"),
    ("hermes: test_clean_file_does_not_trigger_drift", "Entry one — normal length.\n§\nEntry two — also normal.\n§\nEntry three."),
    # Reading: universal newlines, BOM, Python's white space, code points
    ("CRLF separators", "first thing\r\n§\r\nsecond thing\r\n"),
    ("CR separators", "First\r§\rSecond"),
    ("mixed newlines inside an entry", "one\r\ntwo\rthree\n§\nfour"),
    ("CRLF duplicates", "Two\r\n§\r\nTwo\r\n"),
    ("BOM kept as a character of entry 1", "\ufeffFirst\n§\nSecond"),
    ("BOM-only first chunk is an entry", "\ufeff\n§\nSecond"),
    ("BOM and a copy without it are different entries", "\ufeffSame\n§\nSame"),
    ("U+0085 is Python white space", "\x85First\x85\n§\nSecond"),
    ("U+001C..U+001F are Python white space", "\x1cA\x1d\n§\n\x1eB\x1f"),
    ("U+FEFF inside is not white space", "A\n§\n\ufeffB\ufeff"),
    ("ideographic space and NBSP strip", "\u3000A\u00a0\n§\nB"),
    ("U+200B does not strip", "\u200bA\n§\nB"),
    ("emoji count one code point each", "😀\r\n§\r\ná"),
    ("ZWJ emoji sequence", "👩‍💻 codes\n§\n🇫🇷 flag"),
    ("CJK", "部署前先运行测试\n§\n数据库迁移需要人工确认"),
    ("empty chunks between separators", "Card X\n§\n   \n§\n\n§\nCard Y"),
    ("whitespace only", "   \n\t\n  "),
    ("empty", ""),
    ("separator at the ends", "§\nFirst card\n§\nSecond card\n§"),
    ("adjacent separators", "A\n§\n§\nB"),
    ("inline section sign", "One\ncontinued § sign\n§\nTwo"),
    ("CR-LF-CR mixture", "A\r\r\n§\n\rB"),
]

PIECES = ["a", "word ", "部署", "😀", "👩‍💻", " ", "\t", "\r", "\n", "\r\n", "§", "\n§\n", "\r\n§\r\n", "\r§\r",
          "\ufeff", "\x85", "\u3000", "\u00a0", "\u200b", "\x1c", "é", "e\u0301", "x" * 40]


def random_cases(n, seed=13):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        k = rng.randint(0, 40)
        text = "".join(rng.choice(PIECES) for _ in range(k))
        if rng.random() < 0.2:
            text = "\ufeff" + text
        out.append((f"random {i}", text))
    return out


def corpus(root):
    rows = []
    for p in sorted(Path(root).rglob("*.md")):
        if p.name not in ("MEMORY.md", "USER.md"):
            continue
        data = p.read_bytes()
        entries, chars = load(data.decode("utf-8"))
        rows.append({"path": str(p.relative_to(root)), "sha256": hashlib.sha256(data).hexdigest(), "entries": len(entries), "chars": chars})
    print(json.dumps(rows, indent=1))


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--corpus":
        return corpus(sys.argv[2])
    rows = []
    for name, text in CASES + random_cases(300):
        entries, chars = load(text)
        rows.append({"name": name, "text": text, "entries": entries, "chars": chars})
    print(json.dumps(rows, ensure_ascii=True, indent=1))


if __name__ == "__main__":
    main()
