"""The property tests' damaged files: a real file's text with the few character-level edits a
hand-edited or half-written file has. One strategy for every reader's tests (URDF, MJCF,
.osim); each test names its own inserted tokens and numbers, those a parser of its format
trips on."""
from hypothesis import strategies as st

KINDS = ("delete", "insert", "replace", "duplicate", "truncate", "number")


@st.composite
def edited(draw, text, inserts, kinds=KINDS, numbers=("0", "1"), new_numbers=None,
           edits=3, span=40):
    """text with 1 to ``edits`` edits, each of one of ``kinds`` at a drawn place: a span of up
    to ``span`` characters deleted, duplicated or replaced by a draw of ``inserts``, a draw
    of ``inserts`` put in, the text cut there, or the first of a drawn ``numbers`` replaced
    by a draw of ``new_numbers``."""
    for _ in range(draw(st.integers(1, edits))):
        i = draw(st.integers(0, len(text)))
        j = draw(st.integers(i, min(len(text), i + span)))
        kind = draw(st.sampled_from(kinds))
        if kind == "delete":
            text = text[:i] + text[j:]
        elif kind == "insert":
            text = text[:i] + draw(inserts) + text[i:]
        elif kind == "replace":
            text = text[:i] + draw(inserts) + text[j:]
        elif kind == "duplicate":
            text = text[:j] + text[i:j] + text[j:]
        elif kind == "truncate":
            text = text[:i]
        else:
            text = text.replace(draw(st.sampled_from(numbers)), draw(new_numbers), 1)
    return text
