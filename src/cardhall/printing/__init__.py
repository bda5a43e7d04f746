"""Print and play: the deck and the rule sheets as PDF (needs the ``print`` extra)."""
