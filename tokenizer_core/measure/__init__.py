"""Numbers about tokenizations: metrics, compression curves and quality, language costs, boundaries.

May import models, trainers, reference and the top level; nothing in the core imports measure.
"""
