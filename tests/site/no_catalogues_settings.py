"""The site's settings with LOCALE_PATHS at `TEST_LOCALE_PATHS`: a deploy whose
translation catalogues were never compiled (tests/site/test_catalogue_check.py)."""

import os

from bloqueio_site.settings import *  # noqa: F403

LOCALE_PATHS = [os.environ["TEST_LOCALE_PATHS"]]
