"""Brazilian dates as the pages' scripts write them ("28 de nov. de 2026"): Django's
pt_BR month names are capitalised ("Novembro"), which Portuguese does not do."""

DATE_FORMAT = r"j \d\e b. \d\e Y"
DATETIME_FORMAT = r"j \d\e b. \d\e Y, H:i"
YEAR_MONTH_FORMAT = r"b. \d\e Y"
MONTH_DAY_FORMAT = r"j \d\e b."
