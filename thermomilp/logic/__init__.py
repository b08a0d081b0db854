"""Reasoning on vessel levels: brute force, propagation, probing, hints."""
