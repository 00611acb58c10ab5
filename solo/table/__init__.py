"""The table: the session that decides and journals, the command language, table talk and the chronicle."""
