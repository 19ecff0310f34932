"""The Z3 view of the rules: frames (symbolic states), the transition relation, and the
abstraction function between concrete engine states and frames."""
