"""The browser client's translations: every English string has a German and a Dutch twin.

The server merges ``i18n/<lang>.json`` with every ``i18n/<lang>.<module>.json`` group by
group (``pysaboteur.web.server.translations``); each file is checked on its own here: the
same groups and keys in every language, every ``{placeholder}`` of the English text in its
translations, and no translation that is still the English text, except the few words that
are the same in that language (the allow-list below).
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

I18N = Path(__file__).resolve().parent.parent / "src" / "pysaboteur" / "web" / "i18n"
OTHERS = ("de", "nl")
PLACEHOLDER = re.compile(r"\{[a-z_0-9]+\}")

#: words that are rightly the same as the English ones, per language (names, loan words):
#: a translation may equal its English text when every word of it is listed here
SAME: dict[str, set[str]] = {
    "de": {"Saboteur", "Bot", "Start", "Gold", "Name", "normal", "offline", "Boss", "Troll",
           "Mine", "Information", "Lobby", "Link", "Team", "Solo", "OK", "Pixel", "Clan",
           "N", "S", "W"},  # the compass letters they share
    "nl": {"Saboteur", "Bot", "Start", "offline", "Storm", "Open", "lobby", "Lobby", "Link",
           "Team", "Solo", "OK", "Pixel", "clan", "Clan", "N", "W"},
}
#: keys whose value is a language's own name or code
OWN = {"lang", "name"}


def _words(text: str) -> list[str]:
    """The words of a text, without its {placeholders}, digits and signs."""
    return re.findall(r"[^\W\d_]+", PLACEHOLDER.sub(" ", text))


def _english_files() -> list[Path]:
    return sorted(p for p in I18N.glob("en*.json"))


def _twin(path: Path, lang: str) -> Path:
    return path.with_name(lang + path.name[2:])


def _flat(data: dict[str, object], prefix: str = "") -> dict[str, str]:
    out: dict[str, str] = {}
    for key, value in data.items():
        if isinstance(value, dict):
            out.update(_flat(value, f"{prefix}{key}."))
        else:
            out[f"{prefix}{key}"] = value  # type: ignore[assignment]
    return out


def _load(path: Path) -> dict[str, object]:
    data = json.loads(path.read_text(encoding="utf-8"))
    assert isinstance(data, dict), path.name
    return data


FILES = [p.name for p in _english_files()]


def test_there_are_translation_files() -> None:
    assert "en.json" in FILES
    assert any(name.count(".") == 2 for name in FILES)  # module files (en.<module>.json)


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("lang", OTHERS)
def test_every_english_file_has_a_twin_with_the_same_keys(name: str, lang: str) -> None:
    en = _flat(_load(I18N / name))
    twin = _twin(I18N / name, lang)
    assert twin.exists(), f"{twin.name} is missing"
    other = _flat(_load(twin))
    assert sorted(set(en) - set(other)) == [], f"{twin.name} lacks these keys"
    assert sorted(set(other) - set(en)) == [], f"{twin.name} has keys English has not"


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("lang", OTHERS)
def test_every_string_is_translated(name: str, lang: str) -> None:
    en = _flat(_load(I18N / name))
    other = _flat(_load(_twin(I18N / name, lang)))
    same = [f"{key}: {value!r}" for key, value in en.items()
            if key.split(".")[-1] not in OWN and other.get(key) == value
            and not set(_words(value)) <= SAME[lang]]
    assert same == [], f"{lang}: still English in {_twin(I18N / name, lang).name}"


@pytest.mark.parametrize("name", FILES)
@pytest.mark.parametrize("lang", OTHERS)
def test_translations_keep_every_placeholder(name: str, lang: str) -> None:
    en = _flat(_load(I18N / name))
    other = _flat(_load(_twin(I18N / name, lang)))
    lost = []
    for key, value in en.items():
        if not isinstance(value, str) or key not in other:
            continue
        want = set(PLACEHOLDER.findall(value))
        got = set(PLACEHOLDER.findall(str(other[key])))
        if want != got:
            lost.append(f"{key}: {sorted(want)} vs {sorted(got)}")
    assert lost == [], f"{lang}: placeholders differ in {_twin(I18N / name, lang).name}"


@pytest.mark.parametrize("lang", ("en", *OTHERS))
def test_every_file_parses_and_holds_only_strings(lang: str) -> None:
    for path in sorted(I18N.glob(f"{lang}*.json")):
        data = _load(path)
        for key, value in _flat(data).items():
            assert isinstance(value, str), f"{path.name}: {key} is not a string"
            assert value.strip(), f"{path.name}: {key} is empty"


def test_no_file_without_an_english_original() -> None:
    english = {p.name[2:] for p in _english_files()}
    for lang in OTHERS:
        for path in I18N.glob(f"{lang}*.json"):
            assert path.name[2:] in english, f"{path.name} has no English original"


def test_the_merged_catalogue_has_every_group_in_every_language() -> None:
    pytest.importorskip("fastapi")
    from pysaboteur.web.server import translations

    en = _flat(translations("en"))
    for lang in OTHERS:
        other = _flat(translations(lang))
        assert sorted(set(en) - set(other)) == []
