"""Pingwiny z Madagaskaru: state, rules of the family variant, scoring."""
