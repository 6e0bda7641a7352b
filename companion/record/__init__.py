"""The group's record: players and their names over the years, statistics, exports and
imports, and the HTML reports."""
