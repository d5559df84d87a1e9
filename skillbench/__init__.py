"""skillbench: measure how well agents select skills from budgeted listings.

The top-level package stays import-light so that ``skillbench --help`` never loads torch,
litellm, pandas or matplotlib; import the concept packages (``skillbench.catalog``,
``skillbench.listing``, …) for the public API.
"""

__version__ = "0.1.0"
