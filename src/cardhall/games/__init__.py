"""The games. Each file is one game, its rules readable top to bottom."""
