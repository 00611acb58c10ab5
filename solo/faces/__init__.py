"""The faces: the CLI, the REPL, the text renderer and the Markdown export."""
