"""The Director: oracle tables, the yes/no and Mythic oracles, adventures, the story and its narrations."""
