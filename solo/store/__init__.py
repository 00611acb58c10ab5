"""The store: the append-only SQLite journal, folding and snapshots, safe file writes."""
