"""The site's own date formats per language (FORMAT_MODULE_PATH), over Django's."""
