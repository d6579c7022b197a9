"""The RL adapters' encodings: :mod:`folkdeck.agents.encoding`, where the learned bots
(:mod:`folkdeck.agents.learned`) use the same observation vector and action tokens.

>>> from folkdeck.agents import encoding
>>> Encoding is encoding.Encoding
True
"""

from folkdeck.agents.encoding import END, HIGH, PHASE_BUCKETS, RECENT, WAIT, Encoding, Section

__all__ = ["END", "HIGH", "PHASE_BUCKETS", "RECENT", "WAIT", "Encoding", "Section"]
