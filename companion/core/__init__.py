"""The rules and the money, in plain Python: nothing here imports Flask or SQLAlchemy."""
