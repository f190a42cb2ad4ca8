"""The web console in a real browser: headless Chromium (Selenium) against the real gateway served by uvicorn."""

from __future__ import annotations

import json
import re
import socket
import threading
import time
import urllib.parse
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import uvicorn
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.remote.webdriver import WebDriver
from selenium.webdriver.support import expected_conditions as ec
from selenium.webdriver.support.ui import WebDriverWait

from sufficient_context._samples import SAMPLE_CHUNKS
from sufficient_context.server import ServerSettings, create_app

QUESTION = "What is the punishment for cheating under Section 420?"
OFF_TOPIC = 'What is the capital of France? <img src=x id="injected">'  # shown as text, never as markup
API_KEY = "console-test-key"


def _write_docs(folder: Path) -> None:
    """One Markdown file per statute; the IPC one opens with 40 unrelated articles, so its cited sections sit far
    down the document and the source panel has to scroll to them."""
    statutes: dict[str, list[str]] = {
        "IPC": [
            f"## Article {i}\n\nThe harbour master shall record vessel number {i} arriving at the northern pier.\n"
            for i in range(40)
        ]
    }
    for chunk in SAMPLE_CHUNKS:
        meta = chunk["metadata"]
        assert isinstance(meta, dict)
        statutes.setdefault(str(meta["statute"]), []).append(f"## Section {meta['section']}\n\n{chunk['content']}\n")
    for statute, sections in statutes.items():
        (folder / f"{statute.lower()}.md").write_text(f"# {statute}\n\n" + "\n".join(sections), encoding="utf-8")


class _Server:
    """An ASGI app under uvicorn in a background thread, on a free loopback port."""

    def __init__(self, app: Any, port: int = 0) -> None:
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # a restart takes the port it had
        self.sock.bind(("127.0.0.1", port))
        self.port = int(self.sock.getsockname()[1])
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        self.server = uvicorn.Server(uvicorn.Config(app, log_level="warning"))
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            assert self.thread.is_alive(), "the server thread died"
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.02)

    def get(self, path: str, key: str | None = None) -> Any:
        request = urllib.request.Request(self.url + path)
        if key:
            request.add_header("Authorization", f"Bearer {key}")
        with urllib.request.urlopen(request, timeout=10) as response:
            return json.loads(response.read())

    def stop(self, force: bool = False) -> None:
        """`force`: as a second Ctrl+C, without waiting for open event streams."""
        self.server.force_exit = force
        self.server.should_exit = True
        self.thread.join(10)
        self.sock.close()


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Server]:
    root = tmp_path_factory.mktemp("console")
    docs = root / "docs"
    docs.mkdir()
    _write_docs(docs)
    running = _Server(create_app(ServerSettings(docs=docs, data_dir=root / "data")))
    yield running
    running.stop()


# What the fake upstream model says: a meta sentence, one the cited chunk backs, one it does not (removed).
MODEL_ANSWER = (
    "Based on the retrieved documents, here is the answer. "
    "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine [S1]. "
    "The offence is bailable and punishable with up to ten years [S1]."
)
UNSUPPORTED = "The offence is bailable and punishable with up to ten years [S1]."


def _fake_model(state: dict[str, Any]) -> Any:
    """An OpenAI-compatible upstream: ``state["answer"]`` (default MODEL_ANSWER), or HTTP 500 while
    ``state["fail"]``."""
    from fastapi import FastAPI
    from fastapi.responses import JSONResponse

    app = FastAPI()

    @app.post("/v1/chat/completions")
    async def complete() -> Any:
        if state["fail"]:
            return JSONResponse({"error": {"message": "the model is overloaded"}}, status_code=500)
        message = {"role": "assistant", "content": state.get("answer", MODEL_ANSWER)}
        return {"id": "fake", "object": "chat.completion", "choices": [{"index": 0, "message": message}]}

    return app


@pytest.fixture(scope="module")
def model_state() -> dict[str, Any]:
    return {"fail": False}


@pytest.fixture(scope="module")
def locked_server(tmp_path_factory: pytest.TempPathFactory, model_state: dict[str, Any]) -> Iterator[_Server]:
    """Wants an API key and answers through a fake upstream model."""
    from sufficient_context.server import UpstreamSettings

    root = tmp_path_factory.mktemp("console-locked")
    docs = root / "docs"
    docs.mkdir()
    _write_docs(docs)
    model = _Server(_fake_model(model_state))
    settings = ServerSettings(
        docs=docs, data_dir=root / "data", api_key=API_KEY, upstream=UpstreamSettings(url=model.url + "/v1")
    )
    running = _Server(create_app(settings))
    yield running
    running.stop()
    model.stop()


def _wait(driver: WebDriver, timeout: float = 15) -> WebDriverWait:
    return WebDriverWait(driver, timeout)


def _ask(driver: WebDriver, base: str, question: str) -> None:
    driver.get(base + "/")
    box = _wait(driver).until(ec.element_to_be_clickable((By.ID, "question")))
    box.send_keys(question)
    driver.find_element(By.ID, "ask-button").click()


def _answered(driver: WebDriver) -> None:
    _wait(driver).until(ec.text_to_be_present_in_element((By.ID, "status"), "Answer ready."))


def test_answer_sources_citation_feedback_and_history(server: _Server, browser: WebDriver) -> None:
    _ask(browser, server.url, QUESTION)
    _answered(browser)
    assert not browser.find_element(By.ID, "error").is_displayed()
    assert browser.find_element(By.ID, "decision").text in ("Answered", "Answered with caveat")
    assert not browser.find_element(By.ID, "refusal").is_displayed()

    # every sentence carries its validation as text, not colour alone, with the score and reason in its details
    claims = browser.find_elements(By.CSS_SELECTOR, "#claims > li.claim")
    assert claims
    for claim in claims:
        label = claim.find_element(By.CLASS_NAME, "claim-label").text.lower()
        assert label.lstrip("\u2713!\u2022 ") in ("covered", "uncovered", "meta")
        assert "support" in claim.get_attribute("title")
    claims[0].find_element(By.TAG_NAME, "summary").click()
    details = claims[0].find_element(By.CSS_SELECTOR, "details dl")
    _wait(browser).until(lambda _: details.is_displayed())
    assert "Reason" in details.text
    assert "Support score" in details.text

    # sources beside the answer, with scores; the confidence badge and bar
    sources = browser.find_elements(By.CSS_SELECTOR, "#sources > li")
    assert sources
    assert all(re.search(r"\d\.\d\d", s.find_element(By.CLASS_NAME, "source-score").text) for s in sources)
    answer_box = browser.find_element(By.ID, "answer-section").rect
    sources_box = browser.find_element(By.ID, "sources-section").rect
    assert sources_box["x"] > answer_box["x"] + answer_box["width"] / 2  # two columns on a wide window
    assert browser.find_element(By.ID, "level-badge").text in ("Sufficient", "Partial")
    assert int(browser.find_element(By.ID, "score-bar").get_attribute("aria-valuenow")) > 0

    # a citation opens its source document with the chunk highlighted
    citation = browser.find_element(By.CSS_SELECTOR, "#claims a.cite")
    chunk_id = citation.get_attribute("data-chunk")
    citation.click()
    mark = _wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#panel-doc mark")))
    source = server.get("/v1/sources/" + urllib.parse.quote(chunk_id, safe=""))
    chunk_text = source["document"][source["start"] : source["end"]]
    assert chunk_text.strip()
    assert " ".join(mark.text.split()) == " ".join(chunk_text.split())
    assert source["start"] > 1000  # far down: the panel scrolled the passage into view, not the page behind it
    mark_box, doc_box = (browser.find_element(By.ID, i).rect for i in ("panel-mark", "panel-doc"))
    assert doc_box["y"] <= mark_box["y"] < doc_box["y"] + doc_box["height"]
    browser.find_element(By.ID, "panel-close").click()
    _wait(browser).until(ec.invisibility_of_element_located((By.ID, "source-panel")))

    # a source in the list opens the panel as well (keyboard: Enter on the focused button)
    source_button = browser.find_element(By.CSS_SELECTOR, "#sources button.source-open")
    source_button.send_keys("\n")
    _wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#panel-doc mark")))
    assert source_button.get_attribute("aria-current") == "true"
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)  # Escape closes it and gives the focus back
    _wait(browser).until(ec.invisibility_of_element_located((By.ID, "source-panel")))
    assert browser.switch_to.active_element == source_button

    # feedback is confirmed and lands in the query log
    browser.find_element(By.ID, "feedback-correct").click()
    _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "feedback-status"), "recorded as correct"))
    rows = server.get("/v1/history?limit=50")["rows"]
    mine = [row for row in rows if row["query"] == QUESTION]
    assert mine
    assert mine[0]["feedback"] is True

    # the history page lists the question with its decision and feedback
    browser.get(server.url + "/history")
    _wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#history-rows tr")))
    listed = [tr.text for tr in browser.find_elements(By.CSS_SELECTOR, "#history-rows tr")]
    assert any(QUESTION in text and "correct" in text and "Answered" in text for text in listed)


def test_off_topic_question_is_a_refusal_not_an_error(server: _Server, browser: WebDriver) -> None:
    _ask(browser, server.url, OFF_TOPIC)
    _answered(browser)
    refusal = browser.find_element(By.ID, "refusal")
    assert refusal.is_displayed()
    assert refusal.find_element(By.ID, "refusal-text").text
    assert not browser.find_element(By.ID, "error").is_displayed()
    assert browser.find_element(By.ID, "decision").text in ("Insufficient evidence", "No evidence")
    assert not browser.find_element(By.ID, "claims").is_displayed()
    assert browser.find_element(By.ID, "result-question").text == OFF_TOPIC
    assert not browser.find_elements(By.ID, "injected")
    browser.get(server.url + "/history")
    _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "history-rows"), OFF_TOPIC))
    assert not browser.find_elements(By.ID, "injected")


def test_partial_context_answer_shows_its_caveat(server: _Server, browser: WebDriver) -> None:
    _ask(browser, server.url, "What does the Indian Penal Code say about cheating and property?")
    _answered(browser)
    assert browser.find_element(By.ID, "decision").text == "Answered with caveat"
    caveat = browser.find_element(By.ID, "caveat")
    assert caveat.is_displayed()
    assert "limited available information" in caveat.text
    assert not browser.find_element(By.ID, "refusal").is_displayed()
    assert browser.find_elements(By.CSS_SELECTOR, "#claims > li.claim")


def test_api_key_prompt_http_error_and_removed_sentences(
    locked_server: _Server, model_state: dict[str, Any], browser: WebDriver
) -> None:
    browser.get(locked_server.url + "/")
    browser.execute_script("window.localStorage.clear()")
    model_state["fail"] = True
    _ask(browser, locked_server.url, QUESTION)
    key_box = _wait(browser).until(ec.visibility_of_element_located((By.ID, "api-key")))
    key_box.send_keys(API_KEY)
    browser.find_element(By.ID, "auth-save").click()
    error = _wait(browser).until(ec.visibility_of_element_located((By.ID, "error")))
    assert error.text.startswith("Error 502: ")
    assert "overloaded" in error.text  # the server's message, as it gave it
    assert not browser.find_element(By.ID, "result").is_displayed()
    assert browser.execute_script("return window.localStorage.getItem('sufficient-context.api-key')") == API_KEY

    # the key is kept; the model answers now: the unsupported sentence is listed as removed, the meta one marked
    model_state["fail"] = False
    browser.find_element(By.ID, "ask-button").click()
    _answered(browser)
    assert not browser.find_element(By.ID, "error").is_displayed()
    assert not browser.find_element(By.ID, "auth-form").is_displayed()
    labels = [e.text.lower() for e in browser.find_elements(By.CSS_SELECTOR, "#claims .claim-label")]
    assert any(label.endswith("meta") for label in labels)
    assert any(label.endswith("covered") and not label.endswith("uncovered") for label in labels)
    removed = browser.find_elements(By.CSS_SELECTOR, "#removed > li")
    assert [" ".join(li.find_element(By.CLASS_NAME, "claim-text").text.split()) for li in removed] == [UNSUPPORTED]
    assert "removed" in removed[0].find_element(By.CLASS_NAME, "claim-label").text.lower()

    browser.get(locked_server.url + "/history")
    _wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, "#history-rows tr")))
    assert not browser.find_element(By.ID, "auth-form").is_displayed()


def _reads_left_to_right(driver: WebDriver, element: Any) -> bool:
    """Whether the element's first character is drawn left of its second (a U+202E override would swap them)."""
    return bool(driver.execute_script(
        """const text = arguments[0].firstChild, range = document.createRange();
        const x = i => {
            range.setStart(text, i); range.setEnd(text, i + 1); return range.getBoundingClientRect().left;
        };
        return x(0) < x(1);""", element))  # fmt: skip


def test_model_text_that_runs_long_or_overrides_direction_stays_in_its_card(
    locked_server: _Server, model_state: dict[str, Any], browser: WebDriver
) -> None:
    # A model that copies a 600-character token and a right-to-left override (U+202E) out of a document.
    token = "C" * 600
    model_state["answer"] = (
        f"Punishable with {token} [S1]. "
        "Cheating under Section 420 is punishable with imprisonment of up to seven years and a fine \u202e[S1]."
    )

    def stays_in_the_answer_card(node: Any) -> None:
        width = browser.execute_script("return document.documentElement.clientWidth")
        assert browser.execute_script("return document.documentElement.scrollWidth") <= width  # no sideways scroll
        answer, side = (browser.find_element(By.ID, i).rect for i in ("answer-section", "confidence"))
        assert node.rect["x"] + node.rect["width"] <= answer["x"] + answer["width"] < side["x"]

    browser.get(locked_server.url + "/")
    browser.execute_script("window.localStorage.setItem('sufficient-context.api-key', arguments[0])", API_KEY)
    try:
        _ask(browser, locked_server.url, f"{QUESTION} {token}")  # the token is a key term no document has
        _answered(browser)
        stays_in_the_answer_card(browser.find_element(By.ID, "result-question"))
        _ask(browser, locked_server.url, QUESTION)
        _answered(browser)
    finally:
        del model_state["answer"]
    removed = browser.find_element(By.CSS_SELECTOR, "#removed .claim-text")  # the token is in no document
    assert token in removed.text
    stays_in_the_answer_card(removed)
    claim = browser.find_element(By.CSS_SELECTOR, "#claims .claim-text")
    citation = claim.find_element(By.CSS_SELECTOR, "a.cite")
    assert citation.text == "S1"
    assert _reads_left_to_right(browser, citation)


# ---------------------------------------------------------------------------------------------------------------------
# The deliberation page
# ---------------------------------------------------------------------------------------------------------------------
# One answer, then two meta contributions: 2 of 3 early contributions (> 50%) fire the event on the third.
MEETING = (
    ("Architect", "Move the orders table first, then switch the reads, then drop the old schema."),
    ("Analyst", "Without knowing the deadline, it depends on many factors. When is the launch?"),
    ("Engineer", "I can't assess the risk without more context. Which database do you run today?"),
)


def _post(server: _Server, path: str, body: dict[str, Any]) -> Any:
    request = urllib.request.Request(server.url + path, data=json.dumps(body).encode(), method="POST",
                                     headers={"Content-Type": "application/json"})  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        return json.loads(response.read())


def _delib_server(browser: WebDriver, root: Path, timeout: float) -> Iterator[_Server]:
    docs = root / "docs"
    docs.mkdir()
    _write_docs(docs)
    running = _Server(create_app(ServerSettings(docs=docs, data_dir=root / "data", deliberation_timeout=timeout)))
    yield running
    browser.get("about:blank")  # closes the page's event stream, so the server can stop at once
    running.stop()


@pytest.fixture(scope="module")
def delib_server(browser: WebDriver, tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Server]:
    """A deliberation timeout long enough for a person (60 s)."""
    yield from _delib_server(browser, tmp_path_factory.mktemp("delib"), 60)


@pytest.fixture(scope="module")
def hasty_server(browser: WebDriver, tmp_path_factory: pytest.TempPathFactory) -> Iterator[_Server]:
    """Continues on its own 3 s after the event."""
    yield from _delib_server(browser, tmp_path_factory.mktemp("delib-hasty"), 3)


def _start_deliberation(driver: WebDriver, base: str, topic: str) -> str:
    driver.get(base + "/deliberation")
    _wait(driver).until(ec.element_to_be_clickable((By.ID, "topic"))).send_keys(topic)
    driver.find_element(By.ID, "start-button").click()
    _wait(driver).until(ec.visibility_of_element_located((By.ID, "session")))
    _wait(driver).until(ec.text_to_be_present_in_element((By.ID, "stream-status"), "Listening"))
    return str(driver.find_element(By.ID, "session-id").text)


def _contribute(driver: WebDriver, expert: str, text: str) -> None:
    box = driver.find_element(By.ID, "expert")
    box.clear()
    box.send_keys(expert)
    driver.find_element(By.ID, "contribution").send_keys(text + "\n")  # Enter posts
    _wait(driver).until(lambda d: d.find_element(By.ID, "contribution").get_attribute("value") == "")


def _modal(driver: WebDriver) -> Any:
    return _wait(driver).until(ec.visibility_of_element_located((By.ID, "choice-dialog")))


def _seconds(countdown: str) -> int:
    match = re.fullmatch(r"(\d\d):(\d\d)", countdown)
    assert match, countdown
    return int(match[1]) * 60 + int(match[2])


def test_deliberation_modal_asks_the_experts_questions_with_a_countdown(
    delib_server: _Server, browser: WebDriver
) -> None:
    session_id = _start_deliberation(browser, delib_server.url, "Move the orders DB to <b>PostgreSQL</b>?")
    assert browser.find_element(By.ID, "session-topic").text == "Move the orders DB to <b>PostgreSQL</b>?"
    for expert, text in MEETING:
        _contribute(browser, expert, text)
    dialog = _modal(browser)
    assert dialog.get_attribute("role") == "dialog"
    assert dialog.get_attribute("aria-modal") == "true"
    assert browser.switch_to.active_element == browser.find_element(By.ID, "modal-context")  # focus moved in
    assert browser.execute_script("return document.querySelector('main').inert") is True  # the page behind is out
    questions = [li.text for li in browser.find_elements(By.CSS_SELECTOR, "#modal-questions li")]
    assert questions == ["When is the launch?", "Which database do you run today?"]
    assert [b.text for b in dialog.find_elements(By.CSS_SELECTOR, "[data-choice]")] == [
        "Provide more context", "Continue with best effort", "End the discussion"
    ]  # fmt: skip
    first = _seconds(browser.find_element(By.ID, "modal-countdown").text)
    assert 55 <= first <= 60
    time.sleep(1.3)
    assert _seconds(browser.find_element(By.ID, "modal-countdown").text) < first  # it counts down

    # Escape does not dismiss it; provide_more without context is refused in place
    browser.switch_to.active_element.send_keys(Keys.ESCAPE)
    assert dialog.is_displayed()
    assert browser.find_element(By.ID, "modal-escape").is_displayed()
    browser.find_element(By.ID, "choice-provide_more").click()
    assert _wait(browser).until(ec.visibility_of_element_located((By.ID, "modal-error"))).text
    assert dialog.is_displayed()

    # the experts' contributions are listed by round, each marked as meta-discussion
    contributions = browser.find_elements(By.CSS_SELECTOR, "#round-1 li.contribution")
    assert [c.find_element(By.CLASS_NAME, "contribution-expert").text for c in contributions] == [e for e, _ in MEETING]
    assert ["meta-discussion" in c.text for c in contributions] == [False, True, True]

    # a choice closes the dialog and the page says what happened
    browser.find_element(By.ID, "modal-context").send_keys("Team of 4, budget 40k, launch in March.")
    browser.find_element(By.ID, "choice-provide_more").click()
    _wait(browser).until(ec.invisibility_of_element_located((By.ID, "choice-modal")))
    assert browser.find_element(By.ID, "choice-result-title").text == "More context provided"
    assert browser.execute_script("return document.querySelector('main').inert") is False
    assert browser.switch_to.active_element == browser.find_element(By.ID, "contribution")  # focus given back
    _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "events"), "Choice: More context provided"))
    _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "state-choice"), "More context provided"))
    assert delib_server.get(f"/v1/deliberations/{session_id}")["state"]["user_context_choice"] == "provide_more"


def test_deliberation_end_choice_closes_the_session(delib_server: _Server, browser: WebDriver) -> None:
    session_id = _start_deliberation(browser, delib_server.url, "")
    for expert, text in MEETING:
        _post(
            delib_server, f"/v1/deliberations/{session_id}/contributions", {"round": 1, "expert": expert, "text": text}
        )
    _modal(browser)  # contributions from another client reach the page through the stream too
    assert len(browser.find_elements(By.CSS_SELECTOR, "#round-1 li.contribution")) == 3
    browser.find_element(By.ID, "choice-end").click()
    _wait(browser).until(ec.invisibility_of_element_located((By.ID, "choice-modal")))
    _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "session-badge"), "Ended"))
    assert browser.find_element(By.ID, "choice-result-title").text == "Discussion ended"
    assert not browser.find_element(By.ID, "post-button").is_enabled()
    assert delib_server.get(f"/v1/deliberations/{session_id}")["ended"] is True


def test_deliberation_countdown_reaching_zero_continues_automatically(
    hasty_server: _Server, browser: WebDriver
) -> None:
    view = _post(hasty_server, "/v1/deliberations", {"question": "Which queue should we use?"})
    browser.get(f"{hasty_server.url}/deliberation?id={view['id']}")  # a session started elsewhere, watched here
    _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "stream-status"), "Listening"))
    assert browser.find_element(By.ID, "session-topic").text == "Which queue should we use?"
    for expert, text in MEETING:
        _post(
            hasty_server, f"/v1/deliberations/{view['id']}/contributions", {"round": 1, "expert": expert, "text": text}
        )
    _modal(browser)
    assert _seconds(browser.find_element(By.ID, "modal-countdown").text) <= 3
    _wait(browser, 8).until(ec.invisibility_of_element_located((By.ID, "choice-modal")))
    assert browser.find_element(By.ID, "modal-countdown").get_attribute("textContent") == "00:00"
    assert browser.find_element(By.ID, "choice-result-title").text == "Continued automatically"
    _wait(browser).until(
        ec.text_to_be_present_in_element((By.ID, "events"), "Continued automatically after the timeout")
    )
    assert browser.find_element(By.ID, "prompt-text").get_attribute("textContent")
    state = hasty_server.get(f"/v1/deliberations/{view['id']}")
    assert state["pending"] is False
    assert state["state"]["user_context_choice"] == "continue"


def test_deliberation_whose_session_the_restarted_server_lost_offers_a_new_one(
    browser: WebDriver, tmp_path: Path
) -> None:
    docs = tmp_path / "docs"
    docs.mkdir()
    _write_docs(docs)
    settings = ServerSettings(docs=docs, data_dir=tmp_path / "data")
    first = _Server(create_app(settings))
    session_id = _start_deliberation(browser, first.url, "Which queue should we use?")
    _contribute(browser, *MEETING[0])
    first.stop(force=True)
    second = _Server(create_app(settings), port=first.port)  # sessions live in memory: this one has none
    try:
        # the stream's 404 is told as the session gone (it was "reconnecting" to it every second, forever)
        gone = _wait(browser).until(ec.visibility_of_element_located((By.ID, "gone")))
        assert session_id in gone.text
        assert "reconnecting" not in browser.find_element(By.ID, "stream-status").text
        assert browser.find_element(By.ID, "session-badge").text == "Gone"
        assert not browser.find_element(By.ID, "post-button").is_enabled()
        assert len(browser.find_elements(By.CSS_SELECTOR, "#round-1 li.contribution")) == 1  # what was seen stays
        assert "id=" not in browser.current_url
        assert browser.switch_to.active_element == browser.find_element(By.ID, "gone-start")
        browser.switch_to.active_element.send_keys(Keys.ENTER)  # a new session on the same topic
        _wait(browser).until(ec.text_to_be_present_in_element((By.ID, "stream-status"), "Listening"))
        assert not gone.is_displayed()
        new_id = browser.find_element(By.ID, "session-id").text
        assert new_id != session_id
        assert second.get(f"/v1/deliberations/{new_id}")["question"] == "Which queue should we use?"
        assert not browser.find_elements(By.CSS_SELECTOR, "li.contribution")

        # a link to the lost session says the same
        browser.get(f"{second.url}/deliberation?id={session_id}")
        assert session_id in _wait(browser).until(ec.visibility_of_element_located((By.ID, "gone"))).text
        assert not browser.find_element(By.ID, "error").is_displayed()
    finally:
        browser.get("about:blank")
        second.stop()


def test_pages_fit_a_phone_screen(server: _Server, browser: WebDriver) -> None:
    # 390 CSS px, a common phone (headless Chromium windows are never narrower than 500 px: emulate the screen)
    browser.execute_cdp_cmd(
        "Emulation.setDeviceMetricsOverride", {"width": 390, "height": 844, "deviceScaleFactor": 1, "mobile": True}
    )
    try:
        for page in ("/", "/history", "/deliberation"):
            browser.get(server.url + page)
            nav = _wait(browser).until(ec.visibility_of_element_located((By.CSS_SELECTOR, ".site-header nav")))
            width = browser.execute_script("return document.documentElement.clientWidth")
            assert width == 390
            # the navigation ran 8 px past the edge: a sideways scroll on every page, "Deliberation" cut off
            assert browser.execute_script("return document.documentElement.scrollWidth") <= width, page
            assert nav.rect["x"] + nav.rect["width"] <= width, page
    finally:
        browser.execute_cdp_cmd("Emulation.clearDeviceMetricsOverride", {})
