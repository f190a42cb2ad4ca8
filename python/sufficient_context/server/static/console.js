/* Sufficient Context console: plain browser JavaScript, no build step, no dependencies.
 *
 * Every piece of text that comes from the server is written with textContent / text nodes, never innerHTML.
 */
(function () {
  "use strict";

  var STATUS_LABELS = {
    answered: "Answered",
    answered_with_caveat: "Answered with caveat",
    insufficient_evidence: "Insufficient evidence",
    no_evidence: "No evidence"
  };
  var REFUSED = { insufficient_evidence: true, no_evidence: true };
  var CLAIM_LABELS = {
    covered: { icon: "\u2713", text: "covered", title: "Supported by the cited source" },
    uncovered: { icon: "!", text: "uncovered", title: "Not supported by the cited source" },
    meta: { icon: "\u2022", text: "meta", title: "Not a factual claim (no citation needed)" }
  };
  var LEVEL_LABELS = { sufficient: "Sufficient", partial: "Partial", insufficient: "Insufficient" };

  // ---------------------------------------------------------------- helpers

  var C = window.SCConsole; // common.js
  var $ = C.$, el = C.el, clear = C.clear, show = C.show, api = C.api;
  var setStatus = C.setStatus, showError = C.showError, initAuthForm = C.initAuthForm;

  function isNumber(value) {
    return typeof value === "number" && isFinite(value);
  }

  function fmt(value, digits) {
    return isNumber(value) ? value.toFixed(digits === undefined ? 2 : digits) : "\u2013";
  }

  function pct(value) {
    return isNumber(value) ? Math.round(value * 100) + "%" : "\u2013";
  }

  // ------------------------------------------------------------ console page

  var state = { logId: null, sources: {}, lastTrigger: null, panelRequest: 0 };

  function statusBadge(node, status) {
    node.textContent = STATUS_LABELS[status] || status || "Unknown";
    node.className = "badge badge-" + (status || "unknown");
  }

  // Text with [S1] / [S1, S2] citations -> text nodes and links to the sources.
  function appendWithCitations(parent, text) {
    var pattern = /\[(S\d+(?:\s*[,;]\s*S\d+)*)\]/g;
    var last = 0;
    var match;
    while ((match = pattern.exec(text)) !== null) {
      if (match.index > last) parent.appendChild(document.createTextNode(text.slice(last, match.index)));
      var labels = match[1].split(/\s*[,;]\s*/);
      parent.appendChild(document.createTextNode("["));
      labels.forEach(function (label, i) {
        if (i) parent.appendChild(document.createTextNode(", "));
        var source = state.sources[label];
        if (source) {
          var link = el("a", "cite", label);
          link.href = "#source-" + label;
          link.setAttribute("data-chunk", source.id);
          link.setAttribute("data-label", label);
          link.title = "Open " + label + ": " + sourceTitle(source);
          parent.appendChild(link);
        } else {
          parent.appendChild(document.createTextNode(label));
        }
      });
      parent.appendChild(document.createTextNode("]"));
      last = pattern.lastIndex;
    }
    if (last < text.length) parent.appendChild(document.createTextNode(text.slice(last)));
  }

  function sourceTitle(source) {
    var parts = [];
    if (source.document) parts.push(String(source.document));
    if (source.section) {
      var section = String(source.section);
      parts.push(/^[0-9]/.test(section) ? "Section " + section : section);
    }
    if (source.page !== undefined && source.page !== null && source.page !== "") parts.push("p. " + source.page);
    if (!parts.length) parts.push(String(source.id));
    return parts.join(", ");
  }

  function claimTitle(claim) {
    var text = CLAIM_LABELS[claim.status] ? CLAIM_LABELS[claim.status].title : String(claim.status);
    if (isNumber(claim.score)) {
      text += " \u2014 support " + fmt(claim.score) + (isNumber(claim.threshold) ? " (threshold " + fmt(claim.threshold) + ")" : "");
    }
    if (claim.reason) text += " \u2014 " + claim.reason;
    return text;
  }

  function renderClaim(claim, index) {
    var status = CLAIM_LABELS[claim.status] ? claim.status : "meta";
    var label = CLAIM_LABELS[status];
    var item = el("li", "claim claim-" + status);
    item.title = claimTitle(claim);
    var tag = el("span", "claim-label");
    tag.appendChild(el("span", "claim-icon", label.icon)).setAttribute("aria-hidden", "true");
    tag.appendChild(document.createTextNode(label.text));
    item.appendChild(tag);
    var sentence = el("span", "claim-text");
    appendWithCitations(sentence, String(claim.sentence || ""));
    item.appendChild(sentence);

    var details = el("details", "claim-details");
    var summary = el("summary", "", "Details");
    summary.setAttribute("aria-label", "Validation details of sentence " + (index + 1));
    details.appendChild(summary);
    var list = el("dl");
    [
      ["Status", label.text + " \u2014 " + label.title],
      ["Support score", fmt(claim.score)],
      ["Threshold", fmt(claim.threshold)],
      ["Reason", claim.reason || "\u2013"],
      ["In the answer", claim.kept === false ? "no (removed)" : "yes"]
    ].forEach(function (row) {
      list.appendChild(el("dt", "", row[0]));
      list.appendChild(el("dd", "", row[1]));
    });
    details.appendChild(list);
    item.appendChild(details);
    return item;
  }

  function renderSources(sources) {
    var list = $("sources");
    clear(list);
    state.sources = {};
    sources.forEach(function (source) {
      if (source && source.label) state.sources[source.label] = source;
    });
    sources.forEach(function (source, i) {
      var label = source.label || "S" + (i + 1);
      var item = el("li", "source");
      item.id = "source-" + label;
      var button = el("button", "source-open");
      button.type = "button";
      button.setAttribute("data-chunk", source.id);
      button.setAttribute("data-label", label);
      button.appendChild(el("span", "source-label", label));
      var text = el("span", "source-text");
      text.appendChild(el("span", "source-title", sourceTitle(source)));
      text.appendChild(el("span", "source-id", source.id));
      button.appendChild(text);
      var score = el("span", "source-score");
      score.appendChild(el("span", "visually-hidden", "retrieval score "));
      score.appendChild(document.createTextNode(fmt(source.score)));
      button.appendChild(score);
      item.appendChild(button);
      var bar = el("div", "bar bar-small");
      bar.setAttribute("aria-hidden", "true");
      var fill = el("div", "bar-fill");
      fill.style.width = (isNumber(source.score) ? Math.max(0, Math.min(1, source.score)) * 100 : 0) + "%";
      bar.appendChild(fill);
      item.appendChild(bar);
      list.appendChild(item);
    });
    show($("no-sources"), sources.length === 0);
  }

  function fillList(listId, wrapId, items) {
    var list = $(listId);
    clear(list);
    (items || []).forEach(function (text) {
      list.appendChild(el("li", "", text));
    });
    show($(wrapId), !!(items && items.length));
  }

  function renderConfidence(sufficiency, grounding) {
    var badge = $("level-badge");
    var level = sufficiency && sufficiency.level ? String(sufficiency.level) : "unknown";
    badge.textContent = sufficiency ? LEVEL_LABELS[level] || level : "Not checked";
    badge.className = "badge level-" + level;
    var score = sufficiency && isNumber(sufficiency.score) ? Math.max(0, Math.min(1, sufficiency.score)) : null;
    $("score-text").textContent = score === null ? "no score" : "score " + fmt(score) + " (" + pct(score) + ")";
    $("score-fill").style.width = (score === null ? 0 : score * 100) + "%";
    $("score-fill").className = "bar-fill level-" + level;
    var bar = $("score-bar");
    bar.setAttribute("aria-valuenow", score === null ? "0" : String(Math.round(score * 100)));
    bar.setAttribute("aria-valuetext", score === null ? "not checked" : pct(score) + ", " + level);
    $("coverage").textContent = pct(grounding.attribution_coverage);
    $("overall-confidence").textContent = fmt(grounding.confidence);
    fillList("missing", "missing-wrap", sufficiency ? sufficiency.missing : []);
    fillList("factors", "factors-wrap", sufficiency ? sufficiency.factors : []);
  }

  function renderResult(question, data) {
    var choice = data && data.choices && data.choices[0] ? data.choices[0] : {};
    var message = choice.message || {};
    var grounding = data.grounding || {};
    var status = grounding.status || (message.refusal ? "insufficient_evidence" : "answered");
    var refused = !!message.refusal || !!REFUSED[status];
    var sufficiency = data.sufficiency || null;
    var sources = Array.isArray(data.sources) ? data.sources : [];

    state.logId = isNumber(data.log_id) ? data.log_id : null;
    closePanel(false);
    $("result-question").textContent = question;
    statusBadge($("decision"), status);
    renderSources(sources);
    renderConfidence(sufficiency, grounding);

    // refusal notice
    show($("refusal"), refused);
    if (refused) {
      show($("missing-wrap"), false); // listed in the refusal notice instead
      $("refusal-text").textContent =
        message.refusal || grounding.answer || "The documents do not hold enough evidence to answer this question.";
      fillList("refusal-missing", "refusal-missing-wrap", sufficiency ? sufficiency.missing : []);
    }

    // a caveat: the LOW CONFIDENCE banner, the "*Note: ...*" line of a partial context, or the status alone
    var caveats = [];
    var content = String(message.content || "");
    var banner = /^Answer \((LOW CONFIDENCE[^)]*)\):/.exec(content);
    if (banner) caveats.push(banner[1]);
    String(grounding.answer || "")
      .split("\n")
      .forEach(function (line) {
        var note = /^\s*\*Note:\s*(.*)\*\s*$/.exec(line);
        if (note) caveats.push(note[1]);
      });
    if (!caveats.length && status === "answered_with_caveat") {
      caveats.push("the context was partial or the retrieval weak; check the sources.");
    }
    $("caveat-text").textContent = caveats.join(" ");
    show($("caveat"), !refused && caveats.length > 0);

    // the validated sentences
    var claimsList = $("claims");
    clear(claimsList);
    var claims = Array.isArray(grounding.claims) ? grounding.claims : [];
    var shown = claims.filter(function (c) {
      return c && c.kept !== false;
    });
    shown.forEach(function (claim, i) {
      claimsList.appendChild(renderClaim(claim, i));
    });
    show(claimsList, !refused && shown.length > 0);

    var plain = $("answer-plain");
    clear(plain);
    var fallback = !refused && shown.length === 0;
    if (fallback) appendWithCitations(plain, String(grounding.answer || message.content || ""));
    show(plain, fallback);

    // removed sentences, with the reason of their claim when there is one
    var removedList = $("removed");
    clear(removedList);
    var removed = Array.isArray(grounding.removed_sentences) ? grounding.removed_sentences : [];
    removed.forEach(function (sentence) {
      var item = el("li", "claim claim-removed");
      var tag = el("span", "claim-label");
      tag.appendChild(el("span", "claim-icon", "\u2715")).setAttribute("aria-hidden", "true");
      tag.appendChild(document.createTextNode("removed"));
      item.appendChild(tag);
      item.appendChild(el("span", "claim-text", sentence));
      var claim = claims.filter(function (c) {
        return c && c.sentence === sentence;
      })[0];
      if (claim) {
        item.title = claimTitle(claim);
        item.appendChild(el("span", "claim-reason", claim.reason || ""));
      }
      removedList.appendChild(item);
    });
    show($("removed-wrap"), removed.length > 0);

    // feedback
    var feedbackOk = state.logId !== null;
    show($("feedback"), feedbackOk);
    ["feedback-correct", "feedback-incorrect"].forEach(function (id) {
      $(id).disabled = false;
      $(id).setAttribute("aria-pressed", "false");
    });
    $("feedback-status").textContent = "";
    $("feedback-label").textContent = refused ? "Was it right not to answer?" : "Was this answer correct?";

    show($("result"), true);
  }

  function ask(question) {
    var button = $("ask-button");
    button.disabled = true;
    showError(null);
    setStatus("Checking the documents\u2026");
    $("result").setAttribute("aria-busy", "true");
    return api("/v1/chat/completions", { method: "POST", body: { messages: [{ role: "user", content: question }] } })
      .then(
        function (data) {
          renderResult(question, data || {});
          setStatus("Answer ready.");
        },
        function (error) {
          show($("result"), false);
          setStatus("");
          showError(error);
        }
      )
      .then(function () {
        button.disabled = false;
        $("result").removeAttribute("aria-busy");
      });
  }

  function sendFeedback(correct) {
    if (state.logId === null) return;
    var buttons = [$("feedback-correct"), $("feedback-incorrect")];
    var status = $("feedback-status");
    buttons.forEach(function (b) {
      b.disabled = true;
    });
    status.textContent = "Sending\u2026";
    status.className = "feedback-status";
    api("/v1/feedback", { method: "POST", body: { log_id: state.logId, correct: correct } }).then(
      function () {
        buttons.forEach(function (b) {
          b.disabled = false;
          b.setAttribute("aria-pressed", String(b.getAttribute("data-correct") === String(correct)));
        });
        status.textContent = "Thanks \u2014 recorded as " + (correct ? "correct" : "incorrect") + ".";
        status.className = "feedback-status feedback-ok";
      },
      function (error) {
        buttons.forEach(function (b) {
          b.disabled = false;
        });
        status.textContent = "Feedback not saved: " + (error.message || String(error));
        status.className = "feedback-status feedback-error";
      }
    );
  }

  // ------------------------------------------------------------ source panel

  function openSource(chunkId, label, trigger) {
    var panel = $("source-panel");
    var doc = $("panel-doc");
    var request = ++state.panelRequest;
    state.lastTrigger = trigger || null;
    clear(doc);
    $("panel-title").textContent = label ? "Source " + label : "Source";
    $("panel-meta").textContent = chunkId;
    $("panel-status").textContent = "Loading the document\u2026";
    show(panel, true);
    document.body.classList.add("panel-open");
    markCurrent(chunkId);
    panel.focus();
    api("/v1/sources/" + encodeURIComponent(chunkId)).then(
      function (data) {
        if (request !== state.panelRequest) return;
        data = data || {};
        var text = String(data.document || "");
        var start = isNumber(data.start) ? Math.max(0, Math.min(text.length, data.start)) : 0;
        var end = isNumber(data.end) ? Math.max(start, Math.min(text.length, data.end)) : start;
        var meta = [];
        if (data.source_path) meta.push(String(data.source_path));
        if (data.heading) meta.push(String(data.heading));
        if (isNumber(data.chunk_index)) meta.push("chunk " + data.chunk_index);
        $("panel-meta").textContent = meta.join(" \u00b7 ") || chunkId;
        var source = label ? state.sources[label] : null;
        if (source && source.document) $("panel-title").textContent = "Source " + label + ": " + source.document;
        doc.appendChild(document.createTextNode(text.slice(0, start)));
        var mark = el("mark", "chunk", text.slice(start, end));
        mark.id = "panel-mark";
        mark.tabIndex = -1;
        doc.appendChild(mark);
        doc.appendChild(document.createTextNode(text.slice(end)));
        $("panel-status").textContent = "Document loaded; the cited passage is highlighted.";
        // scroll the document box only (scrollIntoView would also scroll the page behind the panel)
        doc.scrollTop = Math.max(0, mark.offsetTop - doc.clientHeight / 3);
      },
      function (error) {
        if (request !== state.panelRequest) return;
        $("panel-status").textContent = "";
        var box = el("div", "notice notice-error");
        box.setAttribute("role", "alert");
        box.appendChild(el("strong", "", error.status ? "Error " + error.status + ": " : "Error: "));
        box.appendChild(document.createTextNode(error.message || String(error)));
        doc.appendChild(box);
      }
    );
  }

  // aria-current on the source (and its citations) shown in the panel
  function markCurrent(chunkId) {
    var nodes = $("result").querySelectorAll("[data-chunk]");
    for (var i = 0; i < nodes.length; i++) {
      if (chunkId !== null && nodes[i].getAttribute("data-chunk") === chunkId) nodes[i].setAttribute("aria-current", "true");
      else nodes[i].removeAttribute("aria-current");
    }
  }

  function closePanel(restoreFocus) {
    var panel = $("source-panel");
    if (!panel || panel.hidden) return;
    state.panelRequest++;
    show(panel, false);
    document.body.classList.remove("panel-open");
    markCurrent(null);
    if (restoreFocus !== false && state.lastTrigger && document.body.contains(state.lastTrigger)) {
      state.lastTrigger.focus();
    }
  }

  function initConsole() {
    var form = $("ask-form");
    var question = $("question");
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var text = question.value.trim();
      if (!text) {
        question.focus();
        return;
      }
      ask(text);
    });
    question.addEventListener("keydown", function (event) {
      if (event.key === "Enter" && !event.shiftKey && !event.isComposing) {
        event.preventDefault();
        if (form.requestSubmit) form.requestSubmit();
        else form.dispatchEvent(new Event("submit", { cancelable: true }));
      }
    });
    // citations and source buttons open the panel (event delegation: they are re-rendered per answer)
    $("result").addEventListener("click", function (event) {
      var target = event.target.closest ? event.target.closest("[data-chunk]") : null;
      if (!target) return;
      event.preventDefault();
      openSource(target.getAttribute("data-chunk"), target.getAttribute("data-label"), target);
    });
    $("feedback-correct").addEventListener("click", function () {
      sendFeedback(true);
    });
    $("feedback-incorrect").addEventListener("click", function () {
      sendFeedback(false);
    });
    $("panel-close").addEventListener("click", function () {
      closePanel(true);
    });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape") closePanel(true);
    });
    var params = new URLSearchParams(window.location.search);
    var initial = params.get("q");
    if (initial) {
      question.value = initial;
      ask(initial);
    } else {
      question.focus();
    }
  }

  // ------------------------------------------------------------ history page

  function formatTime(ts) {
    var date = null;
    if (isNumber(ts)) date = new Date(ts > 1e12 ? ts : ts * 1000);
    else if (typeof ts === "string" && ts) {
      date = new Date(/^\d+(\.\d+)?$/.test(ts) ? Number(ts) * 1000 : ts);
    }
    if (!date || isNaN(date.getTime())) return ts === undefined || ts === null ? "\u2013" : String(ts);
    return date.toLocaleString();
  }

  function feedbackCell(value) {
    if (value === true) return el("span", "fb fb-correct", "\u2713 correct");
    if (value === false) return el("span", "fb fb-incorrect", "\u2717 incorrect");
    return el("span", "fb fb-none", "none");
  }

  function loadHistory() {
    setStatus("Loading\u2026");
    showError(null);
    return api("/v1/history?limit=50").then(
      function (data) {
        var rows = data && Array.isArray(data.rows) ? data.rows : [];
        var body = $("history-rows");
        clear(body);
        rows.forEach(function (row) {
          var tr = el("tr");
          tr.setAttribute("data-id", String(row.id));
          tr.appendChild(el("td", "col-time", formatTime(row.ts)));
          var q = el("td", "col-query");
          var link = el("a", "", row.query);
          link.href = "/?q=" + encodeURIComponent(String(row.query || ""));
          link.title = "Ask again";
          q.appendChild(link);
          tr.appendChild(q);
          var decision = el("td", "col-decision");
          var badge = el("span");
          statusBadge(badge, row.status);
          decision.appendChild(badge);
          tr.appendChild(decision);
          tr.appendChild(el("td", "col-score", fmt(row.score)));
          var fb = el("td", "col-feedback");
          fb.appendChild(feedbackCell(row.feedback));
          tr.appendChild(fb);
          body.appendChild(tr);
        });
        show($("history-table"), rows.length > 0);
        show($("history-empty"), rows.length === 0);
        setStatus(rows.length + (rows.length === 1 ? " question." : " questions."));
      },
      function (error) {
        setStatus("");
        showError(error);
      }
    );
  }

  function initHistory() {
    $("history-refresh").addEventListener("click", loadHistory);
    loadHistory();
  }

  // ------------------------------------------------------------------ start

  document.addEventListener("DOMContentLoaded", function () {
    initAuthForm();
    var page = document.body.getAttribute("data-page");
    if (page === "console") initConsole();
    else if (page === "history") initHistory();
  });
})();
