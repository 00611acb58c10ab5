"""Local-model narration: backends, the LangGraph narration graph, and the checks that keep
the model's prose true to what the rules decided. Everything heavy is imported on use, so the
game starts and plays without a model stack installed."""
