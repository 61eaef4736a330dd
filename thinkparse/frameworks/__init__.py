"""What the framework adapters (``thinkparse.langchain``, ``thinkparse.litellm``) share, and the
parts of them that import a framework.

* ``_options``            -- checking the think options an adapter takes, and the model-name
  preset of a framework's message;
* ``_langchain_callback`` -- ``TraceStoreCallback``, a LangChain callback handler.

Like the command line, these modules use the package face only: they are glue on top of the
library, not part of it.
"""
