"""Components for LangChain and LlamaIndex, over the same checks and pipeline as every other surface.

``sufficient_context.integrations.langchain`` needs the ``[langchain]`` extra (langchain-core) and
``sufficient_context.integrations.llamaindex`` the ``[llamaindex]`` extra (llama-index-core); importing one without
its framework raises ImportError naming the extra. Importing this package imports neither framework.
"""

from __future__ import annotations
