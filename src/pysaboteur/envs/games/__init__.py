"""One small encoding module per game: its window, action families and extra view fields."""
