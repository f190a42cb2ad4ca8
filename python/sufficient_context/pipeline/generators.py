"""Generators by duck typing: a callable ``(system_prompt, user_prompt) -> str``, a LangChain chat model
(``.invoke``) or a LlamaIndex LLM (``.complete``). No framework is imported."""

from __future__ import annotations

from typing import Any, Callable

from .._args import replace_surrogates, text_of

__all__ = ["Generator", "as_generator"]

Generator = Callable[[str, str], str]


def as_generator(generate: Any) -> tuple[Generator, str]:
    """``(call(system, user) -> str, kind)`` for any supported generator; kind names it for the envelope."""
    if hasattr(generate, "invoke") and not _is_plain_function(generate):
        return _langchain(generate), "langchain"
    if hasattr(generate, "complete"):
        return _llamaindex(generate), "llamaindex"
    if callable(generate):
        return _callable(generate), "callable"
    raise TypeError(
        "generate must be a callable (system_prompt, user_prompt) -> str, an object with .invoke (a LangChain chat "
        f"model) or .complete (a LlamaIndex LLM); got {type(generate).__name__}"
    )


def _is_plain_function(obj: Any) -> bool:
    return callable(obj) and not hasattr(type(obj), "invoke")


def _text_of(value: Any, where: str) -> str:
    # LangChain returns an AIMessage (.content), LlamaIndex a CompletionResponse (.text). Lone surrogates (a JSON
    # "\\udce2" escape in a model server's reply) become U+FFFD, as the checks read them: the answer, the envelope's
    # JSON and the gateway's response must all have a UTF-8 form.
    return replace_surrogates(text_of(value, f"{where} (its return value)"))


def _callable(fn: Callable[..., Any]) -> Generator:
    def call(system: str, user: str) -> str:
        return _text_of(fn(system, user), "generate")

    return call


def _langchain(model: Any) -> Generator:
    def call(system: str, user: str) -> str:
        # Role/content pairs are accepted by every LangChain chat model without importing message classes.
        return _text_of(model.invoke([("system", system), ("human", user)]), "generate.invoke")

    return call


def _llamaindex(llm: Any) -> Generator:
    def call(system: str, user: str) -> str:
        return _text_of(llm.complete(f"{system}\n\n{user}"), "generate.complete")

    return call
