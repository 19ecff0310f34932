"""The vocabulary of the model: state, actions, events, cards and effects (pure data)."""
