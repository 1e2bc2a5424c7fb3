"""A library caller's refusal names the keyword it passes, never a command-line flag: the
oracle is the function's own signature (inspect), which lists the keywords it takes, or,
for a function passing **keywords on (inverse_dynamics_trial to its settings), its
docstring's list of them."""
import inspect
import re


def flags_named(text):
    """Every --option a text names (not a word with '--' inside, such as a file name)."""
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))


def takes_keyword(function, keyword):
    """Whether function takes keyword: a parameter of its signature, or one its docstring
    lists (``keyword``) when it takes **keywords."""
    parameters = inspect.signature(function).parameters
    if keyword in parameters:
        return True
    passes_on = any(p.kind is p.VAR_KEYWORD for p in parameters.values())
    return passes_on and f"``{keyword}``" in (inspect.getdoc(function) or "")


def assert_says_the_keyword(message, function, keyword):
    """message advises function's keyword (one it takes) and names no --flag. The keyword is
    written as one: passed (keyword=), the function's (run_trials' keyword), or the subject
    of the refusal of its value (grf NAME: ...), not merely a word of the prose, which many
    keywords are ("give the model", "no Dask scheduler")."""
    assert takes_keyword(function, keyword), (function, keyword)
    name = re.escape(function.__name__)
    as_keyword = (rf"(?<![\w-]){keyword} ?=|{name}'s? {keyword}(?![\w-])|"
                  rf"^(?:\S+: )*{keyword} ")
    assert re.search(as_keyword, message), message
    assert not flags_named(message), message
