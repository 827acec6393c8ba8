// What every page shares: calling the JSON API, forms that post JSON to it, logging
// out, and dates in the viewer's own time zone.
(function () {
  "use strict";

  function api(method, url, body) {
    var init = { method: method, credentials: "same-origin", headers: {} };
    // The server takes a request that changes something, sent with the session
    // cookie, only as JSON (a page of another site cannot send that without asking).
    if (method !== "GET") init.headers["Content-Type"] = "application/json";
    if (body !== undefined) init.body = JSON.stringify(body);
    return fetch(url, init).then(function (r) {
      return r
        .json()
        .catch(function () {
          return { error: "the server answered " + r.status };
        })
        .then(function (data) {
          return { ok: r.ok, status: r.status, data: data };
        });
    }, function () {
      return { ok: false, status: 0, data: { error: "the server cannot be reached; check your connection" } };
    });
  }

  // The message for a refused request, with each refused order's own reason. The
  // server's own words come first: a 401 is a missing session on most pages but a wrong
  // password on the login form, and only the server knows which.
  function errorText(res) {
    var d = res.data || {};
    var text = d.error || (res.status === 401 ? "Log in first." : "refused (" + res.status + ")");
    if (Array.isArray(d.refused) && d.refused.length > 1) {
      text += " — " + d.refused.map(function (r) { return r.order + ": " + r.error; }).join("; ");
    }
    return text;
  }

  function setPath(obj, path, value) {
    var keys = path.split(".");
    var last = keys.pop();
    keys.forEach(function (k) {
      if (typeof obj[k] !== "object" || obj[k] === null) obj[k] = {};
      obj = obj[k];
    });
    obj[last] = value;
  }

  // A form's fields as JSON: `a.b` names nest, data-type says number, bool, array or
  // numbers (a list of numbers).
  function formBody(form) {
    var body = {};
    var skipZero = form.hasAttribute("data-skip-zero");
    Array.prototype.forEach.call(form.elements, function (el) {
      if (!el.name || el.disabled) return;
      var type = el.getAttribute("data-type");
      if (type === "array") {
        if (el.type === "checkbox" && !el.checked) return;
        var list = body[el.name] || (body[el.name] = []);
        list.push(el.value);
      } else if (type === "numbers") {
        // A list of numbers from several fields of one name; empty fields are left out.
        var numbers = body[el.name] || (body[el.name] = []);
        if (el.value !== "") numbers.push(Number(el.value));
      } else if (type === "bool") {
        setPath(body, el.name, el.checked);
      } else if (type === "number") {
        if (el.value === "") return;
        var n = Number(el.value);
        if (skipZero && n === 0) return;
        setPath(body, el.name, n);
      } else {
        setPath(body, el.name, el.value);
      }
    });
    return body;
  }

  function say(el, text, isError) {
    if (!el) return;
    el.textContent = text;
    el.classList.toggle("error", !!isError);
    el.classList.toggle("ok", !isError && !!text);
  }

  function wireForm(form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var confirmText = form.getAttribute("data-confirm");
      if (confirmText && !window.confirm(confirmText)) return;
      var message = form.querySelector(".form-message");
      var button = form.querySelector("button[type=submit]");
      if (button) button.disabled = true;
      say(message, "Sending…", false);
      var body = formBody(form);
      // A field group left all empty still has to be sent (no bids at all is a bid).
      var empty = form.getAttribute("data-empty");
      if (empty && !body[empty]) body[empty] = {};
      api(form.getAttribute("data-method") || "POST", form.getAttribute("data-api"), body).then(function (res) {
        if (button) button.disabled = false;
        if (!res.ok) {
          say(message, errorText(res), true);
          return;
        }
        var redirect = form.getAttribute("data-redirect");
        if (redirect) {
          window.location.href = redirect.replace(/\{(\w+)\}/g, function (_, k) {
            return encodeURIComponent(res.data[k]);
          });
        } else if (form.hasAttribute("data-reload")) {
          var hash = form.getAttribute("data-hash");
          if (hash) window.location.hash = hash;
          window.location.reload();
        } else if (form.hasAttribute("data-done")) {
          // Fields like passwords are not left filled in once they have done their job.
          form.reset();
          say(message, form.getAttribute("data-done"), false);
        } else {
          say(message, "Saved.", false);
        }
      });
    });
  }

  // A time-zone field left empty starts with the browser's own zone.
  function localZones() {
    var zone = "";
    try { zone = Intl.DateTimeFormat().resolvedOptions().timeZone || ""; } catch (e) { zone = ""; }
    Array.prototype.forEach.call(document.querySelectorAll("input[data-local-zone]"), function (el) {
      if (!el.value && zone) el.value = zone;
    });
  }

  function localTimes() {
    Array.prototype.forEach.call(document.querySelectorAll(".local-time[data-ms]"), function (el) {
      var d = new Date(Number(el.getAttribute("data-ms")));
      el.textContent = " · your time: " + d.toLocaleString(undefined, { year: "numeric", month: "short", day: "numeric", hour: "2-digit", minute: "2-digit", timeZoneName: "short" });
    });
  }

  // Counts down against the server's clock (the viewer's may be wrong): the page says
  // what the server's time was when it was made.
  function countdowns() {
    Array.prototype.forEach.call(document.querySelectorAll(".countdown[data-deadline-ms]"), function (el) {
      var deadline = Number(el.getAttribute("data-deadline-ms"));
      var skew = Number(el.getAttribute("data-now-ms")) - Date.now();
      function pad(n) {
        return (n < 10 ? "0" : "") + n;
      }
      function tick() {
        var left = Math.floor((deadline - (Date.now() + skew)) / 1000);
        if (left <= 0) {
          el.textContent = "due now: the phase is being processed";
          return;
        }
        var d = Math.floor(left / 86400);
        var h = Math.floor((left % 86400) / 3600);
        var m = Math.floor((left % 3600) / 60);
        el.textContent = (d ? d + " d " : "") + pad(h) + ":" + pad(m) + ":" + pad(left % 60);
        window.setTimeout(tick, 1000);
      }
      tick();
    });
  }

  function openHashThread() {
    var id = window.location.hash.slice(1);
    var el = id && document.getElementById(id);
    if (el && el.tagName === "DETAILS") el.open = true;
  }

  // A table too wide for the screen scrolls inside its box: the box takes focus, so
  // that a keyboard can scroll it too, and is named for screen readers after the
  // section it stands in.
  function scrollBoxes() {
    Array.prototype.forEach.call(document.querySelectorAll(".scroll"), function (el) {
      if (el.scrollWidth <= el.clientWidth || el.hasAttribute("tabindex")) return;
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "region");
      var section = el.closest("section, main");
      var heading = section && section.querySelector("h1, h2, h3");
      el.setAttribute("aria-label", (heading ? heading.textContent + ": " : "") + "scrolls sideways");
    });
  }

  window.Chancery = { api: api, errorText: errorText, say: say };

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("form.api-form"), wireForm);
    var logout = document.getElementById("logout");
    if (logout) {
      logout.addEventListener("click", function () {
        api("POST", "/api/logout").then(function () {
          window.location.href = "/";
        });
      });
    }
    localTimes();
    localZones();
    scrollBoxes();
    countdowns();
    openHashThread();
    // A link to a thread on the same page ("Read and reply") opens it too.
    window.addEventListener("hashchange", openHashThread);
  });
})();
