/* Sufficient Context console: what every page shares (DOM helpers, the API key, the /v1 client, status and error
 * lines). Plain browser JavaScript, no build step: it defines window.SCConsole before each page's own script runs.
 *
 * Every piece of text that comes from the server is written with textContent / text nodes, never innerHTML.
 */
(function () {
  "use strict";

  var KEY_STORAGE = "sufficient-context.api-key";
  var memoryKey = ""; // the key when local storage is disabled

  function $(id) {
    return document.getElementById(id);
  }

  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text !== undefined && text !== null) node.textContent = String(text);
    return node;
  }

  function clear(node) {
    while (node.firstChild) node.removeChild(node.firstChild);
  }

  function show(node, visible) {
    node.hidden = !visible;
  }

  function getKey() {
    try {
      return window.localStorage.getItem(KEY_STORAGE) || memoryKey;
    } catch (e) {
      return memoryKey;
    }
  }

  function setKey(key) {
    memoryKey = key;
    try {
      window.localStorage.setItem(KEY_STORAGE, key);
    } catch (e) {
      /* storage disabled: the key lives for this page only */
    }
  }

  // Accept and the bearer key, plus `extra`.
  function authHeaders(extra) {
    var out = { Accept: "application/json" };
    var key = getKey();
    if (key) out.Authorization = "Bearer " + key;
    Object.keys(extra || {}).forEach(function (name) {
      out[name] = extra[name];
    });
    return out;
  }

  // ------------------------------------------------------------ API client

  // `param`: the request field the server named, when it named one.
  function ApiError(status, message, param) {
    this.status = status;
    this.message = message;
    this.param = param || null;
  }

  function errorMessage(status, body, fallback) {
    if (body && typeof body === "object") {
      var detail = body.detail;
      if (typeof detail === "string") return detail;
      if (Array.isArray(detail)) {
        return detail
          .map(function (d) {
            return d && d.msg ? d.msg : JSON.stringify(d);
          })
          .join("; ");
      }
      if (detail && typeof detail === "object" && typeof detail.message === "string") return detail.message;
      if (body.error && typeof body.error === "object" && typeof body.error.message === "string") {
        return body.error.message;
      }
      if (typeof body.error === "string") return body.error;
      if (typeof body.message === "string") return body.message;
    }
    if (typeof body === "string" && body.trim()) return body.trim().slice(0, 500);
    return fallback || "HTTP " + status;
  }

  var pendingAuth = [];

  // JSON from the /v1 API (options: method, body); on 401 ask for the key (once per batch of requests) and retry.
  function api(path, options) {
    options = options || {};
    var hadKey = !!getKey();
    var init = {
      method: options.method || "GET",
      headers: authHeaders(options.body === undefined ? {} : { "Content-Type": "application/json" })
    };
    if (options.body !== undefined) init.body = JSON.stringify(options.body);
    return fetch(path, init).then(
      function (response) {
        return response.text().then(function (raw) {
          var body = null;
          try {
            body = raw ? JSON.parse(raw) : null;
          } catch (e) {
            body = raw;
          }
          if (response.status === 401) {
            return new Promise(function (resolve, reject) {
              requireKey(function () {
                api(path, options).then(resolve, reject);
              }, errorMessage(401, body, "This server needs an API key."), hadKey);
            });
          }
          if (!response.ok) {
            var param = body && typeof body === "object" && body.error ? body.error.param : null;
            throw new ApiError(response.status, errorMessage(response.status, body, response.statusText), param);
          }
          return body;
        });
      },
      function () {
        throw new ApiError(0, "Could not reach the server. Is it running?");
      }
    );
  }

  // Show the key form; `retry` runs once a key is saved (with every other request waiting for one).
  function requireKey(retry, message, hadKey) {
    pendingAuth.push(retry);
    askForKey(message, hadKey);
  }

  function askForKey(message, hadKey) {
    var form = $("auth-form");
    if (!form) return;
    var intro = form.querySelector("p");
    if (intro) {
      intro.textContent = hadKey
        ? "The saved API key was refused (" + message + "). Enter the right key; it is kept in this browser only."
        : "This server asks for an API key. It is kept in this browser only (local storage).";
    }
    show(form, true);
    setStatus("");
    $("api-key").focus();
  }

  function initAuthForm() {
    var form = $("auth-form");
    if (!form) return;
    form.addEventListener("submit", function (event) {
      event.preventDefault();
      var key = $("api-key").value.trim();
      if (!key) return;
      setKey(key);
      $("api-key").value = "";
      show(form, false);
      var waiting = pendingAuth;
      pendingAuth = [];
      waiting.forEach(function (retry) {
        retry();
      });
    });
  }

  // ---------------------------------------------------------- status / error

  function setStatus(text) {
    var node = $("status");
    if (node) node.textContent = text || "";
  }

  function showError(error) {
    var node = $("error");
    if (!node) return;
    clear(node);
    if (!error) {
      show(node, false);
      return;
    }
    var status = error instanceof ApiError ? error.status : 0;
    node.appendChild(el("strong", "", status ? "Error " + status + ": " : "Error: "));
    node.appendChild(document.createTextNode(error.message || String(error)));
    show(node, true);
  }

  window.SCConsole = {
    $: $,
    el: el,
    clear: clear,
    show: show,
    authHeaders: authHeaders,
    ApiError: ApiError,
    api: api,
    requireKey: requireKey,
    initAuthForm: initAuthForm,
    setStatus: setStatus,
    showError: showError
  };
})();
