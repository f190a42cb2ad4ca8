"""The commands. Each reads its inputs, calls the library (checks, pipeline, evaluation) and prints; none decides
anything itself. Exit codes: 0 pass, 1 the check failed (not sufficient, not grounded), 2 usage or input error."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

import click

from .. import __version__
from ..checker import SufficientContextChecker
from ..claims import ClaimCoverage
from ..config import SECTION, load_pipeline_config
from . import render
from .inputs import InputError, load_contexts, read_answer, text_argument

_PATH = click.Path(path_type=Path)


@click.group(
    name="sufficient-context",
    help="Deterministic, LLM-free checks for RAG: is the context sufficient, is the answer grounded.",
    context_settings={"help_option_names": ["-h", "--help"]},
)
@click.version_option(__version__, prog_name="sufficient-context", message="%(prog)s %(version)s")
def app() -> None:
    pass


def json_option(fn: Any) -> Any:
    return click.option("--json", "json_out", is_flag=True, help="Print one JSON document on stdout instead of text.")(
        fn
    )


def verbose_option(fn: Any) -> Any:
    return click.option("--verbose", "-v", is_flag=True, help="Show signals, terms and every detail.")(fn)


def config_option(fn: Any) -> Any:
    return click.option(
        "--config",
        type=_PATH,
        default=None,
        help="YAML configuration (sufficient_context / claims / retrieval / answering sections).",
    )(fn)


def contexts_option(fn: Any) -> Any:
    return click.option(
        "--contexts", "-c", required=True, help="JSON or JSONL chunks, a folder of .txt/.md files, or - for stdin."
    )(fn)


def _exit(code: int) -> None:
    raise click.exceptions.Exit(code)


def _checker(
    config: Path | None, embedding_model: Any = None, *, section_required: bool = True
) -> SufficientContextChecker:
    if config is None:
        return SufficientContextChecker(embedding_model)
    if not section_required:  # eval and calibrate read claims too: calibrate writes a claims-only file for answer rows
        return SufficientContextChecker(embedding_model, **load_pipeline_config(config)[SECTION])
    return SufficientContextChecker.from_config(config, embedding_model)


def _coverage(config: Path | None) -> ClaimCoverage:
    return ClaimCoverage() if config is None else ClaimCoverage.from_config(config)


@app.command()
@click.option("--query", "-q", required=True, help="The question.")
@contexts_option
@click.option(
    "--fail-on",
    type=click.Choice(["partial", "insufficient"]),
    default="partial",
    show_default=True,
    help="Exit 1 at this level or below (partial: anything but sufficient).",
)
@config_option
@json_option
@verbose_option
def check(query: str, contexts: str, fail_on: str, config: Path | None, json_out: bool, verbose: bool) -> None:
    """Is the retrieved context enough to answer the query? Exit 0 sufficient, 1 at or below --fail-on, 2 bad
    input."""
    query = text_argument(query, "--query")
    chunks = load_contexts(contexts)
    checker = _checker(config)
    result = checker.check_sufficiency(query, chunks)
    if json_out:
        render.print_json(result.to_dict())
    else:
        render.sufficiency(result, checker.thresholds, verbose)
    level = result.level.value
    _exit(1 if level == "insufficient" or (fail_on == "partial" and level == "partial") else 0)


@app.command()
@click.option(
    "--answer", "-a", "answer_text", required=True, help="The answer text, a file holding it, or - for stdin."
)
@contexts_option
@config_option
@json_option
@verbose_option
def claims(answer_text: str, contexts: str, config: Path | None, json_out: bool, verbose: bool) -> None:
    """Is every sentence of the answer backed by the chunks it cites? Exit 0 grounded, 1 not, 2 bad input."""
    if answer_text == "-" and contexts == "-":
        raise InputError("--answer and --contexts cannot both read stdin")
    text = read_answer(answer_text)
    chunks = load_contexts(contexts)
    report = _coverage(config).check_answer(text, chunks)
    if json_out:
        render.print_json(report.to_dict())
    else:
        render.claims(report, verbose)
    _exit(0 if report.is_grounded else 1)


@app.command()
@click.argument("query")
@click.option("--docs", "-d", type=_PATH, required=True, help="Folder of .txt / .md documents to answer from.")
@click.option(
    "--llm", default=None, help="OpenAI-compatible base URL (e.g. http://localhost:8000/v1); none: extractive."
)
@click.option("--model", default="default", show_default=True, help="Model name sent to --llm.")
@click.option("--top-k", type=click.IntRange(1, 100), default=5, show_default=True, help="Passages retrieved.")
@config_option
@json_option
@verbose_option
def answer(
    query: str, docs: Path, llm: str | None, model: str, top_k: int, config: Path | None, json_out: bool, verbose: bool
) -> None:
    """Answer QUERY from a folder of documents through the grounded pipeline, then print the validation block.
    Exit 0 grounded and sufficient, 1 otherwise, 2 bad input."""
    from ..pipeline import GroundedAnswerer
    from ..retrieval import PassageIndex, read_folder
    from .llm import openai_generator

    query = text_argument(query, "QUERY")
    try:
        passages = read_folder(docs)
    except ValueError as exc:
        raise InputError(f"--docs: {exc}") from None
    if not passages:
        raise InputError(f"--docs: {os.fspath(docs)!r} holds no .txt or .md text")
    generate = None if llm is None else openai_generator(llm, model)
    answerer = GroundedAnswerer() if config is None else GroundedAnswerer.from_config(config)
    index = PassageIndex()
    index.add(passages)
    chunks = index.search(query, top_k)
    result = answerer.answer(query, chunks, generate=generate)
    if json_out:
        document = result.to_dict()
        document["validation"] = dict(render.validation_block(result, len(chunks)))
        render.print_json(document)
    else:
        render.answer(result, len(chunks), verbose)
    sufficient = (result.sufficiency or {}).get("level") == "sufficient"
    _exit(0 if sufficient and render.grounded(result) else 1)


@app.command("eval")
@click.argument("dataset", type=_PATH)
@click.option("--out", "-o", type=_PATH, default=None, help="Write results.jsonl, summary.json and report.html here.")
@click.option(
    "--embedding-model", default=None, help="sentence-transformers model name or local path (extra [embeddings])."
)
@click.option("--workers", "-w", type=click.IntRange(1, 1024), default=None, help="C++ threads (default: all cores).")
@click.option(
    "--engine",
    type=click.Choice(["local", "ray"]),
    default="local",
    show_default=True,
    help="ray: a Ray Data stage (extra [ray]); DATASET may then be JSONL or Parquet, --workers is threads per actor.",
)
@click.option("--address", default=None, help="Ray cluster to join (auto: this machine's); none: a local Ray.")
@config_option
@json_option
@verbose_option
def eval_(
    dataset: Path,
    out: Path | None,
    embedding_model: str | None,
    workers: int | None,
    engine: str,
    address: str | None,
    config: Path | None,
    json_out: bool,
    verbose: bool,
) -> None:
    """Evaluate DATASET (JSONL rows of {query, contexts, answer?, label?, kind?}) in constant memory: per-row results,
    a summary (levels, scores, AUROC / accuracy per kind when labelled) and an HTML report with plots. A bad row is
    reported with its line number and skipped."""
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, Progress, TimeRemainingColumn

    from ..evaluation import evaluate_file

    if out is not None and out.exists() and not out.is_dir():  # else mkdir's bare "[Errno 17] File exists"
        raise InputError(f"--out: {os.fspath(out)!r} is not a folder; give the folder to write the results in")
    if engine == "ray":
        _eval_on_ray(dataset, out, embedding_model, workers, address, config, json_out, verbose)
        return
    if address is not None:
        raise InputError("--address needs --engine ray")
    if not dataset.is_file():
        raise InputError(f"DATASET: {os.fspath(dataset)!r} is not a file")
    model = None if embedding_model is None else _sentence_transformer(embedding_model)
    checker = _checker(config, model, section_required=False)
    coverage = _coverage(config)
    progress = Progress(
        "[progress.description]{task.description}",
        BarColumn(),
        DownloadColumn(),
        TimeRemainingColumn(),
        transient=True,
        console=Console(stderr=True),
        disable=json_out,
    )
    report = out is not None
    with progress:
        task = progress.add_task("evaluating", total=dataset.stat().st_size)
        try:
            summary = evaluate_file(
                dataset,
                out,
                checker=checker,
                coverage=coverage,
                threads=workers,
                progress=lambda done: progress.update(task, completed=done),
            )
        except ImportError as exc:  # the report's plots need the [report] extra; results and summary still come
            if out is None:
                raise
            click.echo(f"sufficient-context: no report.html: {exc}", err=True)
            report = False
            summary = evaluate_file(dataset, out, checker=checker, coverage=coverage, threads=workers, report=False)
        except KeyboardInterrupt:
            if out is not None:
                partial = os.fspath(out / "results.jsonl.partial")
                click.echo(f"sufficient-context: interrupted; the rows done so far are in {partial}", err=True)
            raise
    document = summary.to_dict()
    _require_rows(document, dataset)
    if json_out:
        render.print_json(document)
        return
    render.evaluation(document, None if out is None else os.fspath(out), report=report)
    if verbose:
        render.print_json(document)


def _require_rows(summary: dict[str, Any], dataset: Path) -> None:
    """No row evaluated is an input error, not a pass: a CSV file, the wrong file, every row misspelled."""
    if summary["rows"] > 0:
        return
    where = f"DATASET: {os.fspath(dataset)!r}"
    if summary["bad_rows"] == 0:
        raise InputError(f"{where} holds no row (JSONL: one JSON object per line)")
    first = summary["bad_row_examples"][0]
    raise InputError(f"{where}: none of its {summary['bad_rows']} rows could be evaluated; line {first['line']}: "
                     f"{first['error']}")  # fmt: skip


def _eval_on_ray(
    dataset: Path,
    out: Path | None,
    embedding_model: str | None,
    workers: int | None,
    address: str | None,
    config: Path | None,
    json_out: bool,
    verbose: bool,
) -> None:
    """``eval --engine ray``: the stage, writers and summary live in ``sufficient_context.scale``."""
    if embedding_model is not None:
        raise InputError("--embedding-model is not supported with --engine ray (each actor would load the model)")
    if not dataset.exists():
        raise InputError(f"DATASET: {os.fspath(dataset)!r} does not exist")
    from ..scale import run
    from ..scale._deps import ray_module
    from ..scale.engine import PARTIAL_SUFFIX, RESULTS_DIR

    try:
        ray_module()
    except ImportError as exc:
        raise InputError(f"--engine ray: {exc}") from None
    try:
        summary = run(dataset, out, config=config, address=address, threads=workers or 1, report=False)
    except KeyboardInterrupt:
        if out is not None and (out / f"{RESULTS_DIR}{PARTIAL_SUFFIX}").is_dir():
            partial = os.fspath(out / f"{RESULTS_DIR}{PARTIAL_SUFFIX}")
            click.echo(f"sufficient-context: interrupted; the rows written so far are in {partial}/", err=True)
        raise
    report = out is not None
    if out is not None:  # written here, not by run: without the [report] extra the results must not be redone
        from ..evaluation.report import write_report

        try:
            write_report(summary, out / "report.html", title=f"Evaluation of {os.fspath(dataset)}")
        except ImportError as exc:  # the report's plots need the [report] extra; results and summary are written
            click.echo(f"sufficient-context: no report.html: {exc}", err=True)
            report = False
    document = summary.to_dict()
    _require_rows(document, dataset)
    if json_out:
        render.print_json(document)
        return
    render.evaluation(document, None)
    if out is not None:
        written = "summary.json and report.html" if report else "summary.json"
        click.echo(f"wrote {os.fspath(out)}/results/ (Parquet), {written}")
    if verbose:
        render.print_json(document)


@app.command()
@click.argument("dataset", type=_PATH)
@click.option(
    "--target-precision",
    type=click.FloatRange(0.5, 1.0),
    default=0.95,
    show_default=True,
    help="Precision each verdict must reach on the labelled rows.",
)
@click.option(
    "--out", "-o", type=_PATH, default=Path("calibrated.yaml"), show_default=True, help="Configuration file to write."
)
@click.option("--workers", "-w", type=click.IntRange(1, 1024), default=None, help="C++ threads (default: all cores).")
@config_option
@json_option
@verbose_option
def calibrate(
    dataset: Path,
    target_precision: float,
    out: Path,
    workers: int | None,
    config: Path | None,
    json_out: bool,
    verbose: bool,
) -> None:
    """Fit the thresholds that reach --target-precision on labelled DATASET and write them as a configuration file
    that from_config reads."""
    from ..evaluation import calibrate as fit

    if not dataset.is_file():
        raise InputError(f"DATASET: {os.fspath(dataset)!r} is not a file")
    if out.is_dir():  # checked before the fit, which can take minutes
        raise InputError(f"--out: {os.fspath(out)!r} is a folder; give the configuration file to write")
    if out.exists() and os.path.samefile(dataset, out):  # writing the config there would erase the data
        raise InputError(f"--out: {os.fspath(out)!r} is the dataset; writing the configuration would erase it")
    result = fit(
        dataset,
        target_precision,
        checker=_checker(config, section_required=False),
        coverage=_coverage(config),
        threads=workers,
    )
    if not result.to_config():
        raise InputError(f"DATASET: {os.fspath(dataset)!r} has no check with rows of both labels")
    result.write(out)
    if json_out:
        render.print_json({"config": os.fspath(out), **result.to_dict()})
        return
    console = render.console()
    picks = (("sufficient", result.sufficient), ("partial", result.partial), ("min_overlap", result.min_overlap))
    for name, pick in picks:
        if pick is None:
            continue
        note = "" if pick.reached else f" [yellow](target {target_precision:g} not reached: best precision)[/]"
        console.print(
            f"{name}: {pick.threshold:g}  precision {pick.precision:.3f}  recall {pick.recall:.3f} "
            f"on {pick.rows} rows{note}"
        )
    console.print(f"wrote {os.fspath(out)}")
    if verbose:
        render.print_json(result.to_config())


@app.command()
@click.option("--docs", "-d", type=_PATH, default=None, help="Folder of .txt / .md documents to answer from.")
@click.option(
    "--config", type=_PATH, default=None, help="YAML configuration: a server: section and the pipeline sections."
)
@click.option("--host", default=None, help="Address to bind (default 127.0.0.1, loopback only).")
@click.option("--port", type=click.IntRange(0, 65535), default=None, help="Port (default 8000).")
@click.option("--api-key", default=None, help="Require 'Authorization: Bearer KEY' (default: $SC_API_KEY, if set).")
def serve(docs: Path | None, config: Path | None, host: str | None, port: int | None, api_key: str | None) -> None:
    """Serve an OpenAI-compatible gateway (POST /v1/chat/completions) that answers from --docs through the grounded
    pipeline, with the review, feedback, sources and history APIs, /metrics and a web console."""
    try:
        from ..server import ServerSettings
        from ..server import serve as run
    except ImportError as exc:
        raise InputError(
            f"serve needs the server extra ({exc.name or exc}): pip install 'sufficient-context[server]'"
        ) from None
    try:
        settings = ServerSettings.load(config, docs=docs, host=host, port=port, api_key=api_key)
    except (OSError, ValueError, TypeError) as exc:
        raise InputError(f"serve: {exc}") from None
    if settings.docs is None:
        raise InputError("serve needs --docs (or server.docs in --config)")
    if not settings.docs.is_dir():
        raise InputError(f"--docs: {os.fspath(settings.docs)!r} is not a directory")
    if settings.api_key is None and settings.host not in ("127.0.0.1", "localhost", "::1"):
        click.echo(f"sufficient-context: warning: serving on {settings.host} without an API key", err=True)
    run(settings)


@app.command()
def demo() -> None:
    """The three main jobs on the built-in sample corpus, each explained in a line."""
    from .demo import run_demo

    run_demo()


def _sentence_transformer(name: str) -> Any:
    try:
        from sentence_transformers import SentenceTransformer
    except ImportError:
        raise InputError(
            "--embedding-model needs sentence-transformers: pip install 'sufficient-context[embeddings]'"
        ) from None
    try:
        return SentenceTransformer(name)
    except Exception as exc:
        raise InputError(f"--embedding-model: cannot load {name!r}: {exc}") from None
