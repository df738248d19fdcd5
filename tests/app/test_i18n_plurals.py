"""Plurals a client-side player fills in (ui/common/i18n.py plural_forms): the form the browser
picks by CLDR's plural category is, for every number, the one gettext's own plural rule picks
from the catalog."""

from __future__ import annotations

import pytest
from babel import Locale

from ui.common import i18n

SINGULAR, PLURAL = "{n} more pair ties at {count}.", "{n} more pairs tie at {count}."


@pytest.mark.parametrize("language", list(i18n.LANGUAGES))
def test_the_category_form_is_gettexts_form_for_every_number(language):
    forms = i18n.plural_forms(SINGULAR, PLURAL, language)
    category = Locale.parse(i18n.LANGUAGES[language]).plural_form  # what Intl.PluralRules reads
    catalog = i18n.translations(language)
    for n in range(1_001):
        assert forms[category(n)] == catalog.ngettext(SINGULAR, PLURAL, n), n
    assert "other" in forms  # the player's fallback


def test_english_has_two_forms_and_chinese_one():
    assert i18n.plural_forms(SINGULAR, PLURAL, "en", n="{n}", count="{count}") == {
        "one": SINGULAR, "other": PLURAL}
    chinese = i18n.plural_forms(SINGULAR, PLURAL, "zh", n="{n}", count="{count}")
    assert list(chinese) == ["other"]
    assert chinese["other"] == i18n.translations("zh").ngettext(SINGULAR, PLURAL, 2)
    assert "{n}" in chinese["other"] and "{count}" in chinese["other"]  # the JS fills them
