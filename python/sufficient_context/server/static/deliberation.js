/* Sufficient Context console, deliberation page: start a session, post contributions, follow the session's event
 * stream, and answer a context_insufficient event in a modal dialog with a countdown.
 *
 * Plain browser JavaScript, no build step. Server text is written with textContent only, never innerHTML. The stream
 * is read with fetch (not EventSource) so that it can carry the API key header.
 */
(function () {
  "use strict";

  var CHOICE_LABELS = {
    provide_more: "More context provided",
    continue: "Continuing with best effort",
    end: "Discussion ended"
  };

  var session = {
    id: null,
    lastEventId: -1,
    ended: false,
    question: "",
    stream: null, // the AbortController of the open stream
    deadline: null, // Date.now() value when the server continues on its own
    timer: null,
    returnFocus: null
  };

  // ---------------------------------------------------------------- helpers

  var C = window.SCConsole; // common.js
  var $ = C.$, el = C.el, clear = C.clear, show = C.show, api = C.api, ApiError = C.ApiError;
  var setStatus = C.setStatus, showError = C.showError, initAuthForm = C.initAuthForm;

  function mmss(seconds) {
    var s = Math.max(0, Math.ceil(seconds));
    var m = Math.floor(s / 60);
    s -= m * 60;
    return (m < 10 ? "0" : "") + m + ":" + (s < 10 ? "0" : "") + s;
  }

  // ------------------------------------------------------------ the stream

  // Read the server-sent events of the session; reconnect after the last id seen until the session ends.
  function openStream() {
    if (session.stream) session.stream.abort();
    var controller = new AbortController();
    session.stream = controller;
    var extra = { Accept: "text/event-stream" };
    if (session.lastEventId >= 0) extra["Last-Event-ID"] = String(session.lastEventId);
    $("stream-status").textContent = "Listening for events\u2026";
    fetch("/v1/deliberations/" + encodeURIComponent(session.id) + "/events", {
      headers: C.authHeaders(extra),
      signal: controller.signal
    })
      .then(function (response) {
        if (response.status === 401) {
          C.requireKey(openStream, "This server needs an API key.", false);
          return null;
        }
        if (response.status === 404) {
          sessionGone(session.id); // the server restarted or the session was removed: retrying cannot bring it back
          return null;
        }
        if (!response.ok || !response.body) throw new ApiError(response.status, "the event stream failed");
        return readEvents(response.body.getReader());
      })
      .then(
        function (done) {
          if (done === null) return;
          if (!session.ended && session.stream === controller) reconnectSoon(controller);
        },
        function (error) {
          if (controller.signal.aborted || session.ended) return;
          $("stream-status").textContent = "The event stream was interrupted (" + (error.message || error) + "); reconnecting\u2026";
          reconnectSoon(controller);
        }
      );
  }

  // A 404 for the session: say so and offer a new one, instead of retrying an id the server no longer knows.
  function sessionGone(id) {
    if (session.id === id) {
      session.ended = true;
      if (session.stream) session.stream.abort();
      session.stream = null;
      closeModal();
      var badge = $("session-badge");
      badge.textContent = "Gone";
      badge.className = "badge badge-insufficient_evidence";
      Array.prototype.forEach.call($("contribution-form").elements, function (node) {
        node.disabled = true;
      });
      $("stream-status").textContent = "The server no longer has this session.";
    }
    showError(null);
    setStatus("");
    $("gone-text").textContent =
      "Session " + id + " no longer exists on the server: it was restarted, or the session was deleted or made " +
      "room for newer ones." + (session.id === id ? " What is shown below is all that is left of it." : "");
    show($("gone"), true);
    var url = new URL(window.location.href);
    url.searchParams.delete("id");
    window.history.replaceState(null, "", url.toString());
    $("gone-start").focus();
  }

  // `error` from a request on the current session: true when it was a 404 (handled as a session gone).
  function gone(error) {
    if (!error || error.status !== 404 || !session.id) return false;
    sessionGone(session.id);
    return true;
  }

  function reconnectSoon(controller) {
    window.setTimeout(function () {
      if (session.stream === controller && !session.ended) openStream();
    }, 1000);
  }

  function readEvents(reader) {
    var decoder = new TextDecoder();
    var buffer = "";
    function pump() {
      return reader.read().then(function (chunk) {
        if (chunk.done) return true;
        buffer += decoder.decode(chunk.value, { stream: true }).replace(/\r\n?/g, "\n");
        var cut;
        while ((cut = buffer.indexOf("\n\n")) >= 0) {
          var block = buffer.slice(0, cut);
          buffer = buffer.slice(cut + 2);
          dispatch(block);
        }
        return pump();
      });
    }
    return pump();
  }

  function dispatch(block) {
    var name = "message";
    var id = null;
    var data = [];
    block.split("\n").forEach(function (line) {
      if (!line || line.charAt(0) === ":") return;
      var colon = line.indexOf(":");
      var field = colon < 0 ? line : line.slice(0, colon);
      var value = colon < 0 ? "" : line.slice(colon + 1).replace(/^ /, "");
      if (field === "event") name = value;
      else if (field === "data") data.push(value);
      else if (field === "id") id = value;
    });
    if (!data.length) return;
    if (id !== null && /^\d+$/.test(id)) session.lastEventId = Number(id);
    var payload;
    try {
      payload = JSON.parse(data.join("\n"));
    } catch (e) {
      return;
    }
    handle(name, payload || {});
  }

  function handle(name, data) {
    if (name === "contribution") addContribution(data);
    else if (name === "context_insufficient") {
      logEvent("Context insufficient: " + percent(data.meta_ratio) + " of the early contributions were meta-discussion");
      openModal(data);
    } else if (name === "context_choice") {
      logEvent(
        (data.automatic ? "Continued automatically after the timeout" : "Choice: " + (CHOICE_LABELS[data.choice] || data.choice))
      );
      applyChoice(data);
    } else if (name === "ended") {
      logEvent(data.reason === "deleted" ? "Session deleted" : "Session ended");
      endSession(data.state);
    }
    refreshState();
  }

  function percent(value) {
    return typeof value === "number" && isFinite(value) ? Math.round(value * 100) + "%" : "\u2013";
  }

  function logEvent(text) {
    var item = el("li", "");
    item.appendChild(el("time", "event-time", new Date().toLocaleTimeString()));
    item.appendChild(document.createTextNode(" " + text));
    $("events").appendChild(item);
  }

  // ------------------------------------------------------------ contributions

  function roundList(round) {
    var id = "round-" + round;
    var existing = $(id);
    if (existing) return existing.querySelector("ol");
    var section = el("section", "round");
    section.id = id;
    section.setAttribute("data-round", String(round));
    var heading = el("h3", "", "Round " + round);
    heading.id = id + "-heading";
    section.setAttribute("aria-labelledby", heading.id);
    section.appendChild(heading);
    section.appendChild(el("ol", "contributions"));
    // rounds in order, whatever order they arrive in
    var rounds = $("rounds");
    var after = null;
    Array.prototype.forEach.call(rounds.children, function (child) {
      if (!after && Number(child.getAttribute("data-round")) > round) after = child;
    });
    rounds.insertBefore(section, after);
    return section.querySelector("ol");
  }

  function addContribution(data) {
    var meta = data.meta || {};
    var item = el("li", "contribution " + (meta.is_meta ? "contribution-meta" : "contribution-answer"));
    var head = el("div", "contribution-head");
    head.appendChild(el("strong", "contribution-expert", data.expert));
    var tag = el("span", "badge " + (meta.is_meta ? "badge-answered_with_caveat" : "badge-answered"));
    tag.textContent = meta.is_meta ? "meta-discussion" : "on topic";
    if (typeof meta.score === "number") tag.title = "meta score " + meta.score.toFixed(2);
    head.appendChild(tag);
    item.appendChild(head);
    item.appendChild(el("p", "contribution-text", data.text));
    roundList(Number(data.round) || 1).appendChild(item);
    show($("no-contributions"), false);
  }

  function postContribution() {
    var round = parseInt($("round").value, 10);
    var expert = $("expert").value.trim();
    var text = $("contribution").value.trim();
    if (!expert) return $("expert").focus();
    if (!text) return $("contribution").focus();
    var button = $("post-button");
    button.disabled = true;
    showError(null);
    api("/v1/deliberations/" + encodeURIComponent(session.id) + "/contributions", { method: "POST", body: {
      round: isFinite(round) ? round : 1,
      expert: expert,
      text: text
    } })
      .then(
        function () {
          $("contribution").value = "";
          setStatus("Contribution posted.");
        },
        function (error) {
          if (!gone(error)) showError(error);
        }
      )
      .then(function () {
        button.disabled = session.ended;
      });
  }

  // ------------------------------------------------------------ the modal

  function openModal(data) {
    var questions = Array.isArray(data.questions) ? data.questions : [];
    var list = $("modal-questions");
    clear(list);
    questions.forEach(function (q) {
      list.appendChild(el("li", "", q));
    });
    show(list, questions.length > 0);
    show($("modal-no-questions"), questions.length === 0);
    $("modal-summary").textContent =
      (data.meta_contributions || 0) + " of " + (data.contributions || 0) + " contributions in the early rounds (" +
      percent(data.meta_ratio) + ") talk about missing context instead of answering. How should the discussion go on?";
    $("modal-error").textContent = "";
    show($("modal-error"), false);
    show($("modal-escape"), false);
    setButtons(false);
    var timeout = typeof data.timeout_seconds === "number" ? data.timeout_seconds : 120;
    startCountdown(timeout);
    if ($("choice-modal").hidden) {
      session.returnFocus = document.activeElement;
      show($("choice-modal"), true);
      document.body.classList.add("modal-open");
      setBackgroundInert(true);
      $("modal-context").focus();
    }
    // the event may be replayed long after it fired: the server knows how much time is really left
    api("/v1/deliberations/" + encodeURIComponent(session.id)).then(function (view) {
      if (view && view.pending && typeof view.seconds_left === "number") startCountdown(view.seconds_left);
      else if (view && !view.pending) closeModal();
    }, function () {});
  }

  function startCountdown(seconds) {
    session.deadline = Date.now() + seconds * 1000;
    if (session.timer) window.clearInterval(session.timer);
    tick();
    session.timer = window.setInterval(tick, 250);
  }

  function tick() {
    var left = (session.deadline - Date.now()) / 1000;
    $("modal-countdown").textContent = mmss(left);
    if (left <= 0) {
      window.clearInterval(session.timer);
      session.timer = null;
      $("modal-countdown").textContent = "00:00";
      setStatus("No choice made in time: the discussion continues with best effort\u2026");
      refreshState(); // the server applies the continue on its own; this asks it now, in case the stream lags
    }
  }

  function closeModal() {
    if (session.timer) window.clearInterval(session.timer);
    session.timer = null;
    if ($("choice-modal").hidden) return;
    show($("choice-modal"), false);
    document.body.classList.remove("modal-open");
    setBackgroundInert(false);
    var back = session.returnFocus;
    session.returnFocus = null;
    if (back && document.body.contains(back) && back !== document.body && !back.disabled) back.focus();
    else $("choice-result").focus();
  }

  // Behind the dialog nothing is reachable, by pointer, keyboard or screen reader.
  function setBackgroundInert(inert) {
    Array.prototype.forEach.call(document.querySelectorAll("body > header, body > main, body > .skip-link"), function (node) {
      node.inert = inert;
      if (inert) node.setAttribute("aria-hidden", "true");
      else node.removeAttribute("aria-hidden");
    });
  }

  function setButtons(disabled) {
    Array.prototype.forEach.call(document.querySelectorAll("#choice-dialog [data-choice]"), function (b) {
      b.disabled = disabled;
    });
  }

  function modalError(text) {
    $("modal-error").textContent = text;
    show($("modal-error"), true);
  }

  function choose(choice) {
    var context = $("modal-context").value.trim();
    if (choice === "provide_more" && !context) {
      modalError("Write the context the experts asked for, or pick another choice.");
      $("modal-context").focus();
      return;
    }
    var body = { choice: choice };
    if (context && choice === "provide_more") body.context = context;
    setButtons(true);
    api("/v1/deliberations/" + encodeURIComponent(session.id) + "/context-choice", { method: "POST", body: body }).then(
      function (event) {
        if (choice === "provide_more") $("modal-context").value = "";
        applyChoice(event && event.data ? event.data : { choice: choice });
      },
      function (error) {
        setButtons(false);
        if (gone(error)) return;
        if (error.status === 409) {
          refreshState(); // decided already (the timeout): the stream brings the outcome
          modalError("This choice came too late: " + error.message);
        } else {
          modalError(error.message || String(error));
          if (error.param === "context") $("modal-context").focus();
        }
      }
    );
  }

  // The modal's keyboard: Tab stays inside; Escape does not dismiss it (a choice is required).
  function modalKeys(event) {
    if ($("choice-modal").hidden) return;
    if (event.key === "Escape") {
      event.preventDefault();
      show($("modal-escape"), true);
      return;
    }
    if (event.key !== "Tab") return;
    var focusable = Array.prototype.filter.call(
      $("choice-dialog").querySelectorAll("textarea, button, [href], input, [tabindex]:not([tabindex='-1'])"),
      function (node) {
        return !node.disabled && node.offsetParent !== null;
      }
    );
    if (!focusable.length) return;
    var first = focusable[0];
    var last = focusable[focusable.length - 1];
    var inside = $("choice-dialog").contains(document.activeElement);
    if (event.shiftKey && (document.activeElement === first || !inside)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && (document.activeElement === last || !inside)) {
      event.preventDefault();
      first.focus();
    }
  }

  // ------------------------------------------------------------ outcome and state

  function applyChoice(data) {
    if (data.automatic) $("modal-countdown").textContent = "00:00"; // the server's clock decided, not ours
    var title = data.automatic ? "Continued automatically" : CHOICE_LABELS[data.choice] || String(data.choice);
    var text;
    if (data.automatic) text = "Nobody chose in time, so the experts go on with what they have and state their assumptions.";
    else if (data.choice === "provide_more") text = "Your context goes to the experts; the discussion goes on.";
    else if (data.choice === "continue") text = "The experts go on with what they have and state their assumptions.";
    else text = "The discussion was ended at your request.";
    $("choice-result-title").textContent = title;
    $("choice-result-text").textContent = text;
    $("prompt-text").textContent = data.prompt || "";
    show($("prompt-wrap"), !!data.prompt);
    var result = $("choice-result");
    result.tabIndex = -1;
    result.className = "notice " + (data.choice === "end" ? "notice-caveat" : "notice-refusal");
    show(result, true);
    setStatus(title + ".");
    closeModal();
    if (data.state) renderState(data.state);
    loadSynthesis();
  }

  function endSession(state) {
    session.ended = true;
    if (session.stream) session.stream.abort();
    session.stream = null;
    closeModal();
    var badge = $("session-badge");
    badge.textContent = "Ended";
    badge.className = "badge badge-insufficient_evidence";
    Array.prototype.forEach.call($("contribution-form").elements, function (node) {
      node.disabled = true;
    });
    $("stream-status").textContent = "The session has ended.";
    if (state) renderState(state);
  }

  function renderState(state) {
    $("state-total").textContent = String(state.total_contributions_count || 0);
    $("state-meta").textContent = String(state.meta_discussion_count || 0);
    $("state-choice").textContent = state.user_context_choice
      ? CHOICE_LABELS[state.user_context_choice] || state.user_context_choice
      : "\u2013";
    $("state-limited").textContent = state.limited_context_mode ? "yes" : "no";
  }

  var refreshing = false;
  var refreshAgain = false;

  // GET the session view; calls made while one is in flight coalesce into one more afterwards.
  function refreshState() {
    if (!session.id) return;
    if (refreshing) {
      refreshAgain = true;
      return;
    }
    refreshing = true;
    function done() {
      refreshing = false;
      if (refreshAgain) {
        refreshAgain = false;
        refreshState();
      }
    }
    api("/v1/deliberations/" + encodeURIComponent(session.id)).then(
      function (view) {
        done();
        if (!view) return;
        renderState(view.state || {});
        if (!session.ended) {
          var badge = $("session-badge");
          badge.textContent = view.pending ? "Waiting for your choice" : "Listening";
          badge.className = "badge " + (view.pending ? "badge-answered_with_caveat" : "badge-unknown");
        }
      },
      function (error) {
        done();
        gone(error);
      }
    );
  }

  function loadSynthesis() {
    api("/v1/deliberations/" + encodeURIComponent(session.id) + "/synthesis").then(function (data) {
      var markdown = data && data.markdown ? String(data.markdown) : "";
      $("synthesis").textContent = markdown;
      show($("synthesis-section"), !!markdown);
    }, function () {});
  }

  // ------------------------------------------------------------ start / attach

  function attach(view) {
    session.id = view.id;
    session.question = view.question || "";
    session.lastEventId = -1;
    session.ended = false;
    clear($("rounds"));
    clear($("events"));
    show($("gone"), false);
    show($("no-contributions"), true);
    show($("choice-result"), false);
    show($("synthesis-section"), false);
    Array.prototype.forEach.call($("contribution-form").elements, function (node) {
      node.disabled = false;
    });
    $("session-id").textContent = view.id;
    $("session-topic").textContent = view.question || "";
    show($("session-topic"), !!view.question);
    renderState(view.state || {});
    show($("session"), true);
    var url = new URL(window.location.href);
    url.searchParams.set("id", view.id);
    window.history.replaceState(null, "", url.toString());
    openStream();
  }

  function start() {
    var topic = $("topic").value.trim();
    var button = $("start-button");
    button.disabled = true;
    showError(null);
    setStatus("Starting a session\u2026");
    api("/v1/deliberations", { method: "POST", body: topic ? { question: topic } : {} })
      .then(
        function (view) {
          attach(view);
          setStatus("Session started. Post the experts' contributions round by round.");
          $("expert").focus();
        },
        function (error) {
          setStatus("");
          showError(error);
        }
      )
      .then(function () {
        button.disabled = false;
      });
  }

  document.addEventListener("DOMContentLoaded", function () {
    initAuthForm();
    $("start-form").addEventListener("submit", function (event) {
      event.preventDefault();
      start();
    });
    $("contribution-form").addEventListener("submit", function (event) {
      event.preventDefault();
      postContribution();
    });
    $("contribution").addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        postContribution();
      }
    });
    Array.prototype.forEach.call(document.querySelectorAll("#choice-dialog [data-choice]"), function (button) {
      button.addEventListener("click", function () {
        choose(button.getAttribute("data-choice"));
      });
    });
    $("gone-start").addEventListener("click", function () {
      if (session.question && !$("topic").value.trim()) $("topic").value = session.question;
      start();
    });
    document.addEventListener("keydown", modalKeys, true);
    // Leaving the page must close the stream: a page kept in the back-forward cache would hold it open.
    window.addEventListener("pagehide", function () {
      if (session.stream) session.stream.abort();
      session.stream = null;
    });
    window.addEventListener("pageshow", function (event) {
      if (event.persisted && session.id && !session.ended) openStream();
    });
    var id = new URLSearchParams(window.location.search).get("id");
    if (id) {
      setStatus("Opening session " + id + "\u2026");
      api("/v1/deliberations/" + encodeURIComponent(id)).then(
        function (view) {
          attach(view);
          setStatus("");
        },
        function (error) {
          setStatus("");
          if (error.status === 404) sessionGone(id);
          else showError(error);
        }
      );
    } else {
      $("topic").focus();
    }
  });
})();
