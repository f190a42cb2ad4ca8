"""Stubs for the compiled extension `sufficient_context._core` (private: use the package modules).

The stubs live in a stub-only folder beside the extension; at run time the extension module wins the import.
"""

from . import checker as checker
from . import claims as claims
from . import deliberation as deliberation
from . import gate as gate
from . import sentences as sentences
from . import similarity as similarity
from . import text as text
