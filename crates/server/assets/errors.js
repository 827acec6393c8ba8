// Loaded first, before any other script: collects script errors, failed loads and
// what the content security policy blocked, shows
// them in the page's alert box (a silent failure looks like a dead button), and keeps
// them in window.chanceryErrors, which the browser tests check after every step.
(function () {
  "use strict";
  var errors = (window.chanceryErrors = []);
  function box() {
    var el = document.getElementById("js-errors");
    if (el && errors.length) {
      el.hidden = false;
      el.textContent = "Something went wrong on this page: " + errors.join("; ");
    }
  }
  function record(text) {
    errors.push(text);
    box();
  }
  window.addEventListener(
    "error",
    function (e) {
      var t = e.target;
      if (t && t !== window && (t.src || t.href)) {
        record("could not load " + (t.src || t.href));
      } else {
        record((e.message || "script error") + (e.filename ? " (" + e.filename + ":" + e.lineno + ")" : ""));
      }
    },
    true
  );
  // Anything the Content-Security-Policy blocks is a bug of ours (the pages run no
  // inline script): the browser tests see it here.
  document.addEventListener("securitypolicyviolation", function (e) {
    record("blocked by the content security policy: " + e.violatedDirective + " " + (e.blockedURI || "inline"));
  });
  window.addEventListener("unhandledrejection", function (e) {
    var r = e.reason;
    record("unhandled: " + ((r && r.message) || r));
  });
  var original = console.error;
  console.error = function () {
    errors.push(Array.prototype.map.call(arguments, String).join(" "));
    return original.apply(console, arguments);
  };
  document.addEventListener("DOMContentLoaded", box);
})();
