"""A library caller's refusal names the keyword it passes, never a command-line flag: the
oracle is the function's own signature (inspect), which lists the keywords it takes."""
import inspect
import re


def flags_named(text):
    """Every --option a text names (not a word with '--' inside, such as a file name)."""
    return set(re.findall(r"(?<![\w-])--[a-z][a-z0-9-]*", text))


def assert_says_the_keyword(message, function, keyword):
    """message advises function's keyword (one of its parameters) and names no --flag."""
    assert keyword in inspect.signature(function).parameters, (function, keyword)
    assert re.search(rf"(?<![\w-]){keyword}(?![\w-])", message), message
    assert not flags_named(message), message
