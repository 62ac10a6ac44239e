"""Dragon Lords studies built from many runs of the engine: tournaments, sensitivity and
paired comparisons (``study``), every legal design in one run (``designs``), fair prices
(``pricing``), the best build (``race``), balance across bot strengths (``skill``), verdicts
that survive the bot (``robustness``) and the committed baseline (``baseline``)."""
