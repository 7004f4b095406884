"""bloqueio_site.jsontext: orjson's speed with the standard library's answers."""

import json

from bloqueio_site import jsontext


def test_the_text_parses_back_to_the_same_value():
    value = {"seat": 3, "action": {"type": "barrier", "at": [4, 5]}, "name": "Zoë ♟",
             "score": -1.5, "none": None, "flags": [True, False]}
    assert json.loads(jsontext.dumps(value)) == value
    assert jsontext.loads(jsontext.dumps(value)) == value


def test_integer_keys_become_strings_as_json_dumps_does():
    assert json.loads(jsontext.dumps({1: "a", "b": 2})) == json.loads(json.dumps({1: "a", "b": 2}))


def test_what_orjson_refuses_falls_back_to_the_standard_library():
    huge = 2**70  # past orjson's 64-bit integers
    assert jsontext.dumps({"n": huge}) == f'{{"n":{huge}}}'


def test_the_text_is_compact():
    assert jsontext.dumps({"a": [1, 2]}) == '{"a":[1,2]}'
