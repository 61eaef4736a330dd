"""The rule tables of the ``<think>`` scanner (docs/behaviour.md#t1, rules T1-T10), shared by
the scan tests: every row gives a text, the options and the exact ``(visible, reasoning)`` that the
rules produce.  ``tests/scan/test_think_rules.py`` runs them one-shot, ``test_think_stream.py`` in
every chunking (S1), ``test_think_api.py`` through the public functions.

Rows marked ``# ambiguous:`` rest on one reading of a sentence that admits another; the comment
gives the reading chosen.
"""


from __future__ import annotations

from typing import Any, NamedTuple, Optional


class Case(NamedTuple):
    id: str
    text: str
    visible: str
    reasoning: Optional[str]
    options: dict[str, Any]


def case(id: str, text: str, visible: str, reasoning: Optional[str], **options: Any) -> Case:
    return Case(id, text, visible, reasoning, options)


def same(id: str, text: str, **options: Any) -> Case:
    """A text with no consumed tag: it comes back identical and without reasoning (T8, T9)."""
    return Case(id, text, text, None, options)


def one_shot(cls: Any, text: str, options: dict[str, Any]) -> tuple[str, Optional[str]]:
    """The whole-text result of one implementation: feed everything, then close (S1)."""
    scanner = cls(**options)
    v1, r1 = scanner.feed(text)
    v2, r2 = scanner.close()
    return v1 + v2, (r1 + r2) if scanner.had_block else None


SIR = {"start_in_reasoning": True}
MAGISTRAL = {"delimiters": [("[THINK]", "[/THINK]")]}
KIMI_OPEN, KIMI_CLOSE = "\u25c1think\u25b7", "\u25c1/think\u25b7"

# --- behaviour.md#t1, the examples table, row by row ------------------------------------------
TABLE = [
    case("table-1", "<think>\nplan\n</think>\n\nAnswer.", "Answer.", "plan"),
    case("table-2", "plain text\n", "plain text\n", None),
    case("table-3", "a</think>b", "ab", None),
    case("table-4", "plan</think>\n\nAnswer", "Answer", "plan", **SIR),
    # table row 5 ("auto") is in T10 below: "auto" exists only in split_think.
    case("table-6", "Use `<think>` here", "Use `<think>` here", None),
    case("table-7", "Hi <think>x</think> there", "Hi  there", "x"),
    case("table-8", "Hi <think>x", "Hi <think>x", None),
    case("table-9", "<think>a</think>b<think>c</think>d", "bd", "a\n\nc"),
    case("table-10", "<think>cut off", "", "cut off"),
    case("table-11", "<think />Answer", "Answer", ""),
]

# --- T1 tag syntax ---------------------------------------------------------------------------
T1 = [
    case("T1-plain", "<think>a</think>b", "b", "a"),
    # T1: ASCII-only lowercasing of both sides
    case("T1-Think", "<Think>a</THINK>b", "b", "a"),
    case("T1-THINK", "<THINK>a</think>b", "b", "a"),
    case("T1-mixed-case", "<tHiNk>a</ThInK>b", "b", "a"),
    case("T1-name-lowercased", "<think>a</think>b", "b", "a", tags="Think"),
    case("T1-name-str-is-one-name", "<thinking>a</thinking>b", "b", "a", tags="thinking"),
    # T1: attributes after one ASCII whitespace are ignored
    case("T1-attr", '<think type="x">a</think>b', "b", "a"),
    case("T1-attr-lf", "<think\n>a</think>b", "b", "a"),
    case("T1-attr-multiline", "<think\tmode=fast\nlevel=2>a</think>b", "b", "a"),
    case("T1-attr-space-only", "<think >a</think >b", "b", "a"),
    case("T1-attr-cr", "<think\r>a</think\r>b", "b", "a"),
    # T1: the first '>' ends the opener; the rest is block text
    case("T1-attr-gt-ends", '<think a="1>2">x</think>', "", '2">x'),
    # T1: '<' may not appear in attributes -> failure, '<' is text, rescanning from 't'
    case("T1-attr-lt-fails", "<think a<b>x</think>y", "<think a<b>xy", None),
    # T1: attribute length: one whitespace + at most 255 further characters
    case("T1-attr-255", "<think " + "a" * 255 + ">x</think>y", "y", "x"),
    case("T1-attr-256", "<think " + "a" * 256 + ">x</think>y", "<think " + "a" * 256 + ">xy", None),
    case("T1-attr-spaces-256", "<think" + " " * 256 + ">x</think>", "", "x"),
    case("T1-attr-spaces-257", "<think" + " " * 257 + ">x</think>", "<think" + " " * 257 + ">x",
         None),
    # T1: closer whitespace: at most 256 ASCII whitespace characters
    case("T1-closer-space", "<think>a</think >b", "b", "a"),
    case("T1-closer-lf", "<think>a</think\n>b", "b", "a"),
    case("T1-closer-mixed-ws", "<think>a</think \t\r\n>b", "b", "a"),
    case("T1-closer-256", "<think>a</think" + " " * 256 + ">b", "b", "a"),
    case("T1-closer-256-mixed", "<think>a</think" + "\t\r\n " * 64 + ">b", "b", "a"),
    case("T1-closer-257", "<think>a</think" + " " * 257 + ">b", "", "a</think" + " " * 257 + ">b"),
    case("T1-orphan-256", "x</think" + " " * 256 + ">y", "xy", None),
    same("T1-orphan-257", "x</think" + " " * 257 + ">y"),
    same("T1-closer-attr", "x</think a>y"),
    same("T1-closer-nbsp", "x</think\u00a0>y"),
    # T1: self-closing openers are empty blocks (T9: reasoning "")
    case("T1-self-closing", "<think/>x", "x", ""),
    case("T1-self-closing-space", "<think />x", "x", ""),
    case("T1-self-closing-attr", '<think x="1"/>x', "x", ""),
    case("T1-self-closing-upper", "<THINK/>x", "x", ""),
    case("T1-self-closing-mid", "a<think/>b", "ab", ""),
    case("T1-self-closing-254", "<think " + "a" * 254 + "/>x", "x", ""),
    same("T1-self-closing-255", "<think " + "a" * 255 + "/>x"),
    # T1: '/' not right before '>' is an attribute character: an ordinary opener
    case("T1-slash-space", "<think / >x", "", "x"),
    same("T1-slash-then-space", "<think/ >x"),
    same("T1-double-slash", "<think//>x"),
    # T1 near-misses: a mismatch makes only '<' text; matching resumes at the next character
    same("T1-thinking", "<thinking>a</thinking>"),
    same("T1-thinker", "<thinker>a"),
    same("T1-think-tank", "<think-tank>a</think-tank>"),
    same("T1-thin-end", "a <thin"),
    same("T1-lone-lt-end", "a <"),
    same("T1-lone-lt", "<"),
    case("T1-lt-lt-think", "<<think>a</think>", "<", "a"),
    case("T1-lt-orphan", "<</think>", "<", None),
    same("T1-lt-lt-lt", "<<<think>>"),
    same("T1-thinkk-closer", "</thinkk>"),
    case("T1-thinkk-in-block", "<think>a</thinkk>b", "", "a</thinkk>b"),
    case("T1-space-after-lt", "< think>a</think>", "< think>a", None),
    same("T1-space-after-slash", "</ think>"),
    same("T1-open-no-gt", "<think"),
    same("T1-open-space-no-gt", "<think "),
    same("T1-close-no-gt", "x</think"),
    same("T1-open-attr-no-gt", "<think x"),
    case("T1-failed-closer-then-block", "</think<think>a</think>", "</think", "a"),
    # T1: "ASCII whitespace" inside tags is space, tab, LF, CR only (VT/FF are not)
    case("T1-vt-not-tag-space", "<think\x0b>a</think>b", "<think\x0b>ab", None),
    same("T1-ff-not-closer-space", "x</think\x0c>y"),
    case("T1-closer-no-slash-form", "<think>a</think/>b</think>c", "c", "a</think/>b"),
    case("T1-attr-slash-inside", "<think a/b>x</think>", "", "x"),
    case("T1-self-closing-lf", "<think\n/>x", "x", ""),
    # T1: attribute length counts characters (code points), not bytes or code units
    case("T1-attr-255-astral", "<think " + "\U0001f600" * 255 + ">x</think>y", "y", "x"),
    case("T1-attr-256-astral", "<think " + "\U0001f600" * 256 + ">x</think>y",
         "<think " + "\U0001f600" * 256 + ">xy", None),
    # T1 order: while "thinking" could still match the scanner waits; then "think" is tried
    case("T1-longer-name-first", "<think>a</think>b", "b", "a", tags=("thinking", "think")),
    same("T1-longer-name-first-end", "x<thinkin", tags=("thinking", "think")),
    same("T1-delimiter-case-sensitive-lt", "<Think>a</Think>",
         delimiters=[("<think>", "</think>")]),
    # T1 + T5: LF inside delimiters is not visible text (line start after the consumed tag)
    case("T1-delimiter-with-lf", "<x>\nplan\n</x>\n```\n<x>\na\n</x>\n```",
         "```\n<x>\na\n</x>\n```", "plan", delimiters=[("<x>\n", "\n</x>")]),
    case("T1-delimiter-ending-lf", "Hello <x>\na\n</x>\n```\n<x>\nb\n</x>\n```",
         "Hello ```\n```", "a\n\nb", delimiters=[("<x>\n", "\n</x>\n")]),
    # T1: no Unicode case folding; look-alike letters are not tags
    same("T1-kelvin", "<thin\u212a>a</thin\u212a>b"),
    same("T1-dotless-i", "<th\u0131nk>a</th\u0131nk>b"),
    same("T1-dotted-I", "<TH\u0130NK>a</TH\u0130NK>b"),
    same("T1-fullwidth-lt", "\uff1cthink>a</think\uff1e"),
    same("T1-kelvin-name-no-k", "<think>a</think>b", tags="thin\u212a"),
    case("T1-kelvin-name", "<THIN\u212a>a</thin\u212a>b", "b", "a", tags="thin\u212a"),
    # T1: several names; a block closes only with its own pair
    case("T1-two-names", "<thinking>a</thinking>b<think>c</think>d", "bd", "a\n\nc",
         tags=("think", "thinking")),
    case("T1-own-closer-only", "<think>a</thinking>b</think>c", "c", "a</thinking>b",
         tags=("think", "thinking")),
    case("T1-name-order-reversed", "<think>a</think>b", "b", "a", tags=("thinking", "think")),
    # T1: literal delimiters (exact, case-sensitive, no attributes, no self-closing)
    case("T1-magistral", "[THINK]plan[/THINK]Answer", "Answer", "plan", **MAGISTRAL),
    same("T1-magistral-case", "[think]a[/think]b", **MAGISTRAL),
    case("T1-magistral-no-attr", "[THINK x]a[/THINK]b", "[THINK x]ab", None, **MAGISTRAL),
    case("T1-magistral-failure", "[[THINK]a[/THINK]", "[", "a", **MAGISTRAL),
    case("T1-magistral-orphan", "a[/THINK]b", "ab", None, **MAGISTRAL),
    case("T1-magistral-no-names", "[THINK]a</think>b", "", "a</think>b", **MAGISTRAL),
    same("T1-magistral-tags-are-text", "<think>a</think>b", **MAGISTRAL),
    same("T1-magistral-end", "Hi [THI", **MAGISTRAL),
    case("T1-kimi", KIMI_OPEN + "plan" + KIMI_CLOSE + "Answer", "Answer", "plan", preset="kimi"),
    case("T1-kimi-visible-first", "x" + KIMI_OPEN + "a" + KIMI_CLOSE + "y", "xy", "a",
         preset="kimi"),
    # T1: tags given together with delimiters are both used
    case("T1-tags-and-delims", "<think>a</think>[THINK]b[/THINK]c", "c", "a\n\nb",
         tags="think", **MAGISTRAL),
    case("T1-tag-block-ignores-delim-close", "<think>a[/THINK]b</think>c", "c", "a[/THINK]b",
         tags="think", **MAGISTRAL),
    case("T1-delim-block-ignores-tag-close", "[THINK]a</think>b[/THINK]c", "c", "a</think>b",
         tags="think", **MAGISTRAL),
    # T1 order: delimiters before names; the pair that opened is the pair that closes
    case("T1-order-delim-first", "<think>a</think >b</think>c", "c", "a</think >b",
         tags="think", delimiters=[("<think>", "</think>")]),
    case("T1-order-same-text-tags-only", "<think>a</think >b</think>c", "bc", "a"),
    case("T1-order-delim-case-sensitive", "<Think>a</think >b", "b", "a",
         tags="think", delimiters=[("<think>", "</think>")]),
    # T1 order: an earlier pair that is a prefix of a later one wins
    case("T1-order-prefix-first", "[[[a]]]b", "]b", "[a",
         delimiters=[("[[", "]]"), ("[[[", "]]]")]),
    case("T1-order-longer-first", "[[[a]]]b", "b", "a", delimiters=[("[[[", "]]]"), ("[[", "]]")]),
    case("T1-order-longer-fails", "[[a]]b", "b", "a", delimiters=[("[[[", "]]]"), ("[[", "]]")]),
    # T1 order: a delimiter extending a tag opener is tried first; when it fails the tag matches
    case("T1-order-delim-extends-tag", "<think>!a!</think>b", "b", "a",
         tags="think", delimiters=[("<think>!", "!</think>")]),
    case("T1-order-delim-extends-tag-fails", "<think>a</think>b", "b", "a",
         tags="think", delimiters=[("<think>!", "!</think>")]),
    case("T1-order-delim-extends-tag-open", "<think>!a</think>b", "", "a</think>b",
         tags="think", delimiters=[("<think>!", "!</think>")]),
    # T1 order: a delimiter that is a prefix of a tag opener wins at that position
    case("T1-order-delim-prefix-of-tag", "<think>a</think>", "", "ink>a</think>",
         tags="think", delimiters=[("<th", "th>")]),
    # T1 order: at one position the opener is tried before the closer
    case("T1-order-open-before-close", "<<xa<<b", "b", "a", delimiters=[("<<x", "<<")]),
    case("T1-order-close-when-open-fails", "a<<yb", "ayb", None, delimiters=[("<<x", "<<")]),
]

# --- T2 openers in visible text (definite / tentative) ----------------------------------------
T2 = [
    same("T2-prose-mention", "Use the <think> tag to reason."),
    case("T2-prose-mention-closed", "Use <think> and </think> tags", "Use  tags", "and"),
    # T2: the restored text is not scanned again
    same("T2-restore-not-rescanned", "x <think>a <think>b"),
    case("T2-restored-after-block", "x<think>a</think>b<think>c", "xb<think>c", "a"),
    case("T2-second-closer-orphan", "x <think>a</think> y </think> z", "x  y  z", "a"),
    same("T2-restore-partial-closer", "Hi <think>x</thi"),
    same("T2-restore-opener-only", "Hi <think>"),
    case("T2-self-closing-after-text", "Hi <think/> there", "Hi  there", ""),
    case("T2-definite-after-orphan", "</think><think>a</think>b", "b", "a"),
    case("T2-tentative-after-code", "`x`<think>a</think>", "`x`", "a"),
    # T2 max_tentative: more than N characters read without the closer beginning -> restore
    case("T2-cap5-exact", "Hi <think>abcde</think>!", "Hi !", "abcde", max_tentative=5),
    case("T2-cap5-over", "Hi <think>abcdef</think>!", "Hi <think>abcdef!", None,
         max_tentative=5),
    case("T2-cap5-ws-counts", "Hi <think> abc </think>!", "Hi !", "abc", max_tentative=5),
    case("T2-cap5-ws-counts-over", "Hi <think>  abc </think>!", "Hi <think>  abc !", None,
         max_tentative=5),
    case("T2-cap5-failed-closer", "Hi <think>abcd</thinkX</think>", "Hi <think>abcd</thinkX",
         None, max_tentative=5),
    case("T2-cap5-opener-at-6", "Hi <think>abcde<think>x</think>", "Hi <think>abcde<think>x",
         None, max_tentative=5),
    # ambiguous: the 6th character '<' is known not to begin the closer once the next '<' is
    # seen; the restore takes exactly the 6 block characters "abcde<" and scanning resumes at
    # the second '<' (T1 failure: "matching resumes at the very next character"), which opens
    # a new tentative block.
    case("T2-cap5-restore-cut", "Hi <think>abcde<<think>x</think>", "Hi <think>abcde<", "x",
         max_tentative=5),
    case("T2-cap1-exact", "Hi <think>a</think>", "Hi ", "a", max_tentative=1),
    case("T2-cap1-over", "Hi <think>ab</think>", "Hi <think>ab", None, max_tentative=1),
    case("T2-cap3-astral", "Hi <think>\U0001f600\U0001f600\U0001f600</think>", "Hi ",
         "\U0001f600\U0001f600\U0001f600", max_tentative=3),
    case("T2-cap3-astral-over", "Hi <think>" + "\U0001f600" * 4 + "</think>",
         "Hi <think>" + "\U0001f600" * 4, None, max_tentative=3),
    case("T2-after-self-closing", "<think/>x<think>y", "x<think>y", ""),
    case("T2-cap-ignores-definite", "<think>abcdef</think>x", "x", "abcdef", max_tentative=1),
    case("T2-cap-none", "Hi <think>" + "a" * 10000 + "</think>!", "Hi !", "a" * 10000,
         max_tentative=None),
    case("T2-cap-default-exact", "Hi <think>" + "a" * 8192 + "</think>!", "Hi !", "a" * 8192),
    case("T2-cap-default-over", "Hi <think>" + "a" * 8193 + "</think>!",
         "Hi <think>" + "a" * 8193 + "!", None),
    case("T2-cap3-then-new-block", "Hi <think>abcd <think>x</think>", "Hi <think>abcd ", "x",
         max_tentative=3),
    # T2 + T5: restored backticks are not scanned, so no span is open afterwards
    case("T2-cap3-restored-backtick", "Hi <think>a`bc<think>x</think>", "Hi <think>a`bc", "x",
         max_tentative=3),
    # T2 + T5: a line begins after each LF, restored or not
    same("T2-cap3-restored-lf-fence", "Hi <think>abc\n```\n<think>x</think>\n```",
         max_tentative=3),
    # ambiguous: restored text is visible text on its line, so the position after it is not at
    # line start and "```" there is an inline span (ended by the LF), not a fence.
    case("T2-cap3-restored-not-line-start", "Hi\n<think>abcd```\n<think>x</think>",
         "Hi\n<think>abcd```\n", "x", max_tentative=3),
]

# --- T3 inside a block ------------------------------------------------------------------------
T3 = [
    case("T3-first-closer", "<think>a</think>b</think>c", "bc", "a"),
    case("T3-no-nesting", "<think>a<think>b</think>c</think>d", "cd", "a<think>b"),
    case("T3-self-closing-is-text", "<think>a<think/>b</think>c", "c", "a<think/>b"),
    case("T3-fence-is-text", "<think>```\n</think>\nanswer", "answer", "```"),
    case("T3-backtick-is-text", "<think>`</think>`</think>", "`</think>", "`"),
    case("T3-tilde-then-fence", "<think>~~~\n</think>~~~", "~~~", "~~~"),
    case("T3-tentative-no-nesting", "x<think>a<think>b</think>c", "xc", "a<think>b"),
    case("T3-tentative-no-code", "x <think>a ``` </think>y", "x y", "a ```"),
]

# --- T4 orphan closers ------------------------------------------------------------------------
T4 = [
    case("T4-only", "</think>", "", None),
    case("T4-end", "Answer</think>", "Answer", None),
    case("T4-leading", "  </think>\n\nAnswer", "Answer", None),
    case("T4-spaces-kept", "a </think> b", "a  b", None),
    case("T4-variant", "</THINK >x", "x", None),
    case("T4-two", "a</think>b</think>c", "abc", None),
    same("T4-in-span", "`</think>`"),
    same("T4-in-fence", "```\n</think>\n```"),
]

# --- T5 code awareness ------------------------------------------------------------------------
T5 = [
    # fences
    same("T5-fence", "```\n<think>x</think>\n```\nafter"),
    same("T5-tilde-fence", "~~~\n<think>x</think>\n~~~\n"),
    same("T5-fence-indent-3", "   ```\n<think>x</think>\n   ```\n"),
    same("T5-fence-indent-2", "  ```\n<think>x</think>"),
    case("T5-indent-4-is-span", "    ```\n<think>x</think>\n", "    ```\n\n", "x"),
    case("T5-indent-4-tilde", "    ~~~\n<think>x</think>", "    ~~~\n", "x"),
    case("T5-tab-is-not-indent", "\t```\n<think>x</think>", "\t```\n", "x"),
    case("T5-nbsp-is-not-indent", "\u00a0```\n<think>x</think>", "\u00a0```\n", "x"),
    same("T5-fence-unclosed", "```\n<think>x</think>"),
    case("T5-close-longer", "```\na\n````\n<think>x</think>", "```\na\n````\n", "x"),
    same("T5-close-shorter", "````\na\n```\n<think>x</think>"),
    case("T5-close-trailing-ws", "```\na\n``` \t\r\n<think>x</think>", "```\na\n``` \t\r\n", "x"),
    same("T5-close-trailing-text", "```\na\n``` x\n<think>x</think>"),
    same("T5-close-two-runs", "```\na\n``` ```\n<think>x</think>"),
    same("T5-close-then-tag", "```\na\n```<think>x</think>"),
    case("T5-close-indent-3", "```\na\n   ```\n<think>x</think>", "```\na\n   ```\n", "x"),
    same("T5-close-indent-4", "```\na\n    ```\n<think>x</think>"),
    same("T5-close-tab", "```\na\n\t```\n<think>x</think>"),
    same("T5-close-other-char", "```\na\n~~~\n<think>x</think>"),
    same("T5-close-other-char-tilde", "~~~\na\n```\n<think>x</think>"),
    case("T5-tilde-close-longer", "~~~\na\n~~~~\n<think>x</think>", "~~~\na\n~~~~\n", "x"),
    case("T5-backticks-in-tilde-fence", "~~~\n```\n~~~\n<think>x</think>", "~~~\n```\n~~~\n", "x"),
    case("T5-empty-fence", "```\n```\n<think>x</think>", "```\n```\n", "x"),
    case("T5-crlf-fence", "```\r\na\r\n```\r\n<think>x</think>", "```\r\na\r\n```\r\n", "x"),
    case("T5-info-string", "```python <think>\n<think>x</think>\n```\n<think>y</think>",
         "```python <think>\n<think>x</think>\n```\n", "y"),
    case("T5-info-with-backtick", "```a`b\n<think>x</think>\n```\n<think>y</think>",
         "```a`b\n<think>x</think>\n```\n", "y"),
    case("T5-fence-after-text", "Text\n```\n<think>x</think>\n```\nMore <think>y</think>",
         "Text\n```\n<think>x</think>\n```\nMore ", "y"),
    case("T5-not-line-start", "Text ```\n<think>x</think>", "Text ```\n", "x"),
    case("T5-tildes-ordinary", "a ~~~ <think>x</think>", "a ~~~ ", "x"),
    case("T5-two-tildes", "~~\n<think>x</think>", "~~\n", "x"),
    same("T5-fence-on-first-line", "```<think>x</think>```"),
    same("T5-span-ends-then-fence", "`a\n```\n<think>x</think>"),
    # inline spans
    case("T5-span-2", "``a`<think>b``<think>c</think>", "``a`<think>b``", "c"),
    case("T5-span-1-other-runs", "`a``<think>x</think>``b`<think>y</think>",
         "`a``<think>x</think>``b`", "y"),
    case("T5-span-ends-at-lf", "`a\n<think>x</think>", "`a\n", "x"),
    same("T5-span-unclosed", "`<think>x</think>"),
    same("T5-span-2-unclosed", "``<think>x</think>`"),
    case("T5-span-3", "a```<think>x</think>```b<think>y</think>", "a```<think>x</think>```b", "y"),
    same("T5-span-4-not-closed-by-3", "a````<think>x</think>```"),
    same("T5-span-1-not-closed-by-2", "a`x``<think>y</think>"),
    case("T5-span-then-tentative", "`x` <think>y</think>", "`x` ", "y"),
    # line start after a consumed tag
    case("T5-tag-at-start-line-start", "<think>a</think>```\n<think>b</think>\n```",
         "```\n<think>b</think>\n```", "a"),
    case("T5-tag-then-4-spaces", "<think>a</think>    ```\n<think>b</think>\n```",
         "```\n\n```", "a\n\nb"),
    case("T5-tag-then-3-spaces", "<think>a</think>   ```\n<think>b</think>\n```",
         "```\n<think>b</think>\n```", "a"),
    case("T5-count-restarts", "  <think>a</think>  ```\n<think>b</think>\n```",
         "```\n<think>b</think>\n```", "a"),
    case("T5-after-lf-tag", "Hello\n<think>a</think>```\n<think>b</think>\n```\n",
         "Hello\n```\n<think>b</think>\n```\n", "a"),
    case("T5-after-space-tag", "Hello <think>a</think>```\n<think>b</think>\n```\n",
         "Hello ```\n\n```\n", "a\n\nb"),
    case("T5-after-lf-orphan", "Hello\n</think>```\n<think>b</think>\n```",
         "Hello\n```\n<think>b</think>\n```", None),
    case("T5-after-lf-self-closing", "Hello\n<think/>```\n<think>b</think>\n```",
         "Hello\n```\n<think>b</think>\n```", ""),
    case("T5-after-lf-tag-4-spaces", "Hello\n<think>a</think>    ```\n<think>b</think>",
         "Hello\n    ```\n", "a\n\nb"),
    case("T5-after-lf-tag-text", "Hello\n<think>a</think>x```\n<think>b</think>",
         "Hello\nx```\n", "a\n\nb"),
    # ambiguous: the last visible character emitted before the tag is a space, not LF, so the
    # tag does not leave the scanner at line start (T5 read literally); "```" is then a span.
    case("T5-spaces-before-tag", "Hello\n  <think>a</think>```\n<think>b</think>",
         "Hello\n  ```\n", "a\n\nb"),
    case("T5-after-implicit-block", "a</think>```\n</think>\n```", "```\n</think>\n```", "a",
         **SIR),
    # code_aware=False
    case("T5-off-span", "`<think>x</think>`", "``", "x", code_aware=False),
    case("T5-off-fence", "```\n<think>x</think>\n```", "```\n\n```", "x", code_aware=False),
    same("T5-off-mention", "Use `<think>` here", code_aware=False),
    case("T5-off-orphan", "`a</think>b`", "`ab`", None, code_aware=False),
    case("T5-off-backtick-delimiter", "```think plan```answer", "answer", "plan",
         code_aware=False, delimiters=[("```think", "```")]),
    # delimiters are literal text inside code, too
    same("T5-delim-in-span", "`[THINK]a[/THINK]`", **MAGISTRAL),
    same("T5-delim-in-fence", "~~~\n[THINK]a[/THINK]\n~~~", **MAGISTRAL),
]

# --- T6 start_in_reasoning=True ---------------------------------------------------------------
T6 = [
    case("T6-empty", "", "", "", **SIR),
    case("T6-no-closer", "just reasoning", "", "just reasoning", **SIR),
    case("T6-whitespace-only", "  ", "", "", **SIR),
    case("T6-echo", "<think>\nplan</think>ans", "ans", "plan", **SIR),
    case("T6-echo-after-ws", "\n\n<think>\nplan\n</think>\nans", "ans", "plan", **SIR),
    case("T6-echo-attr", '<think type="x">plan</think>ans', "ans", "plan", **SIR),
    case("T6-echo-upper", "<THINK>plan</think>ans", "ans", "plan", **SIR),
    case("T6-echo-nbsp", "\u00a0<think>a</think>b", "b", "a", **SIR),
    case("T6-echo-self-closing", "<think/>answer", "answer", "", **SIR),
    case("T6-echo-self-closing-ws", "  <think />  answer", "answer", "", **SIR),
    case("T6-echo-self-closing-attr", '<think x="1"/>answer', "answer", "", **SIR),
    case("T6-self-closing-then-orphan", "<think/></think>x", "x", "", **SIR),
    case("T6-echo-only-first", "<think><think>x</think>y", "y", "<think>x", **SIR),
    case("T6-echo-then-more", "<think>x<think>y</think>z</think>w", "zw", "x<think>y", **SIR),
    case("T6-not-echo-after-text", "x<think>y</think>z", "z", "x<think>y", **SIR),
    case("T6-not-echo-then-orphan", "x<think>y</think>z</think>w", "zw", "x<think>y", **SIR),
    case("T6-not-echo-zwsp", "\u200b<think>a</think>b", "b", "\u200b<think>a", **SIR),
    case("T6-not-echo-after-failed-lt", "<<think>a</think>b", "b", "<<think>a", **SIR),
    case("T6-not-an-opener", "  <thinking>a</think>b", "b", "<thinking>a", **SIR),
    case("T6-unclosed-echo-prefix", "<thin", "", "<thin", **SIR),
    case("T6-echo-unclosed", "<think>a", "", "a", **SIR),
    case("T6-closer-variant", "a</THINK >b", "b", "a", **SIR),
    case("T6-closer-first", "</think>x", "x", "", **SIR),
    case("T6-echo-lf-attr", "<think\n>a</think>b", "b", "a", **SIR),
    case("T6-partial-closer-end", "a</thi", "", "a</thi", **SIR),
    # T6: before an echo the closer of any configured pair ends the block
    case("T6-any-closer-delim", "a[/THINK]b</think>c", "bc", "a", tags="think", **SIR,
         **MAGISTRAL),
    case("T6-any-closer-tag", "a</think>b[/THINK]c", "bc", "a", tags="think", **SIR,
         **MAGISTRAL),
    case("T6-any-closer-name", "a</thinking>b", "b", "a", tags=("think", "thinking"), **SIR),
    # T6: after an echo only that opener's own closer ends the block
    case("T6-echo-own-closer-tag", "<think>a[/THINK]b</think>c", "c", "a[/THINK]b",
         tags="think", **SIR, **MAGISTRAL),
    case("T6-echo-own-closer-delim", "[THINK]a</think>b[/THINK]c", "c", "a</think>b",
         tags="think", **SIR, **MAGISTRAL),
    case("T6-echo-own-closer-name", "<thinking>a</think>b</thinking>c", "c", "a</think>b",
         tags=("think", "thinking"), **SIR),
    case("T6-echo-delimiter", "[THINK]a[/THINK]b", "b", "a", **SIR, **MAGISTRAL),
    # T6 + T2: after the implicit block no visible text was produced: the next block is definite
    case("T6-then-definite", "a</think>\n<think>b</think>c", "c", "a\n\nb", **SIR),
    case("T6-then-tentative", "a</think>x<think>b</think>c", "xc", "a\n\nb", **SIR),
    case("T6-then-orphan", "a</think>b</think>c", "bc", "a", **SIR),
    case("T6-no-code-in-block", "```\n</think>\n```", "```", "```", **SIR),
    case("T6-preset-deepseek", "plan</think>ans", "ans", "plan", preset="deepseek-r1"),
    case("T6-preset-qwen3-thinking", "plan</think>ans", "ans", "plan", preset="qwen3-thinking"),
]

# --- T7 end of text ---------------------------------------------------------------------------
T7 = [
    same("T7-partial-opener", "abc<thi"),
    case("T7-partial-closer-in-block", "<think>abc</thi", "", "abc</thi"),
    same("T7-partial-closer-tentative", "Hi <think>x</thi"),
    same("T7-partial-opener-attr", "Hi <think"),
    same("T7-leading-ws-partial-opener", "  <thi"),
    same("T7-leading-ws-partial-closer", "  </think"),
    case("T7-leading-ws-opener", "  <think>", "", ""),
    case("T7-definite", "<think>a", "", "a"),
    case("T7-definite-empty", "<think>", "", ""),
    same("T7-partial-delimiter", "Hi [THI", **MAGISTRAL),
    case("T7-partial-delimiter-in-block", "[THINK]a[/THI", "", "a[/THI", **MAGISTRAL),
]

# --- T8 whitespace ----------------------------------------------------------------------------
T8 = [
    case("T8-around", "\n\n<think>a</think>\n\nB\n\n", "B\n\n", "a"),
    same("T8-ws-only", "   "),
    same("T8-ws-then-text", "  \n  Hello"),
    same("T8-empty", ""),
    same("T8-tab-lf", "\t\n"),
    case("T8-only-block-and-ws", "  <think>a</think>  ", "", "a"),
    case("T8-between-tags", "\n<think>a</think>\n<think>b</think>\nX", "X", "a\n\nb"),
    case("T8-orphan-drops-leading", "  </think>  x", "x", None),
    case("T8-nbsp", "\u00a0<think>a</think>\u00a0B", "B", "a"),
    case("T8-ls-ideographic", "\u2028<think>a</think>\u3000B", "B", "a"),
    case("T8-vt-ff-fs-us", "\x0b\x0c<think>a</think>\x1c\x1fB", "B", "a"),
    case("T8-zwsp-not-ws", "\u200b<think>a</think>B", "\u200bB", "a"),
    case("T8-bom-not-ws", "\ufeff<think>a</think>B", "\ufeffB", "a"),
    case("T8-strip-unicode-ws", "<think>\u3000a\u00a0</think>", "", "a"),
    case("T8-no-strip-zwsp", "<think>\u200ba\ufeff</think>", "", "\u200ba\ufeff"),
    case("T8-inner-ws-kept", "<think>a  \n\n  b</think>", "", "a  \n\n  b"),
    case("T8-trailing-kept", "A <think>a</think>\n\n", "A \n\n", "a"),
    case("T8-exact-after-text", "A\n\n\n<think>a</think>  \n\n  B  ", "A\n\n\n  \n\n  B  ", "a"),
    case("T8-crlf", "<think>\r\nplan\r\n</think>\r\n\r\nAnswer\r\n", "Answer\r\n", "plan"),
    same("T8-crlf-no-tags", "line1\r\nline2\r\n"),
    case("T8-crlf-kept", "A\r\n<think>x</think>\r\nB", "A\r\n\r\nB", "x"),
    case("T8-cjk-emoji", "<think>\u601d\u8003\U0001f914</think>\u7b54\u3048\U0001f600",
         "\u7b54\u3048\U0001f600", "\u601d\u8003\U0001f914"),
    case("T8-emoji-first", "\U0001f600<think>\u00e9</think>\u00fc", "\U0001f600\u00fc", "\u00e9"),
    same("T8-non-ascii-no-tags", "caf\u00e9 \U0001f600 \u00a0\u2028 na\u00efve"),
]

# --- T9 joining -------------------------------------------------------------------------------
T9 = [
    case("T9-empty-block", "<think></think>x", "x", ""),
    case("T9-empty-block-newlines", "<think>\n\n</think>", "", ""),
    case("T9-empty-block-answer", "<think>\n\n</think>\n\nAnswer", "Answer", ""),
    case("T9-skip-empty", "<think>a</think><think>\n</think><think>b</think>", "", "a\n\nb"),
    case("T9-all-empty", "<think> </think>x<think>\t</think>", "x", ""),
    case("T9-self-closing-then-block", "a<think/>b<think>c</think>", "ab", "c"),
    case("T9-self-closing-between", "<think>a</think><think/><think>b</think>", "", "a\n\nb"),
    case("T9-interleaved", "A<think>1</think>B<think>2</think>C", "ABC", "1\n\n2"),
    case("T9-interleaved-spaces", "A <think>1</think> B <think>2</think> C", "A  B  C", "1\n\n2"),
    case("T9-three", "<think>a</think><think>b</think><think>c</think>", "", "a\n\nb\n\nc"),
    case("T9-restored-not-counted", "x <think>a", "x <think>a", None),
    case("T9-empty-then-restored", "<think></think>x<think>y", "x<think>y", ""),
]

ALL_CASES = TABLE + T1 + T2 + T3 + T4 + T5 + T6 + T7 + T8 + T9

# --- T10 start_in_reasoning="auto" (split_think / strip_think only) ---------------------------
AUTO = {"start_in_reasoning": "auto"}
T10 = [
    case("T10-table-5", "plan</think>\n\nAnswer", "Answer", "plan", **AUTO),
    case("T10-default-block", "<think>a</think>b", "b", "a", **AUTO),
    same("T10-no-tags", "hello", **AUTO),
    case("T10-mid-text", "Answer mentions </think> here", "here", "Answer mentions", **AUTO),
    case("T10-then-tentative", "a</think>b<think>c</think>d", "bd", "a\n\nc", **AUTO),
    case("T10-then-definite", "a</think><think>c</think>d", "d", "a\n\nc", **AUTO),
    case("T10-empty-first", "</think>x", "x", "", **AUTO),
    case("T10-ws-first", "  </think>  x", "x", "", **AUTO),
    case("T10-stripped", "  plan  </think>  ans", "ans", "plan", **AUTO),
    case("T10-code-not-consumed", "`<think>` x</think>y", "y", "`<think>` x", **AUTO),
    same("T10-closer-in-code", "`</think>` x", **AUTO),
    same("T10-closer-in-fence", "```\n</think>\n```\nok", **AUTO),
    case("T10-after-fence", "```\nx\n```\nplan</think>ans", "ans", "```\nx\n```\nplan",
         **AUTO),
    case("T10-opener-first", "Hi <think>a</think>b</think>c", "Hi bc", "a", **AUTO),
    case("T10-second-orphan", "a</think>b</think>c", "bc", "a", **AUTO),
    case("T10-line-start", "\n\nplan\n</think>\n\n```\ncode <think>\n```",
         "```\ncode <think>\n```", "plan", **AUTO),
    case("T10-delimiter", "plan[/THINK]answer", "answer", "plan", preset="magistral", **AUTO),
    case("T10-code-aware-off", "`x`</think>y", "y", "`x`", code_aware=False, **AUTO),
    case("T10-self-closing-first", "Hi <think/> x</think>y", "Hi  xy", "", **AUTO),
    case("T10-preset-overridden", "plan</think>ok", "ok", "plan", preset="deepseek-r1", **AUTO),
    # ambiguous: a tentative opener restored past max_tentative is not "consumed" (it goes back
    # into the visible text verbatim), so the first consumed tag is the orphan closer.
    case("T10-restored-opener", "Hi <think>abcd</think>end", "end", "Hi <think>abcd",
         max_tentative=3, **AUTO),
]


