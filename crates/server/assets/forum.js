// The forum's buttons beyond the plain forms: quoting a post into the reply, the
// moderators' one-click actions (pin, lock, show, remove, lift) and the forms whose
// body or address is made from their fields (hide with a reason, a game's GM). Every
// action is a call to the JSON API; the server decides who may do it.
(function () {
  "use strict";

  function message(el) {
    var box = el.closest("article, section, form");
    return box && box.querySelector(".form-message");
  }

  function send(el, method, url, body) {
    var C = window.Chancery;
    var out = message(el);
    C.say(out, "Sending…", false);
    return C.api(method, url, body).then(function (res) {
      if (!res.ok) {
        C.say(out, C.errorText(res), true);
        return false;
      }
      window.location.reload();
      return true;
    });
  }

  function quote(button) {
    var area = document.getElementById("reply-body");
    if (!area) return;
    var lines = (button.getAttribute("data-text") || "").split(/\r?\n/);
    var quoted = "> " + button.getAttribute("data-author") + " wrote:\n" +
      lines.map(function (l) { return "> " + l; }).join("\n") + "\n\n";
    area.value = (area.value ? area.value.replace(/\s*$/, "\n\n") : "") + quoted;
    area.focus();
    area.setSelectionRange(area.value.length, area.value.length);
  }

  document.addEventListener("DOMContentLoaded", function () {
    Array.prototype.forEach.call(document.querySelectorAll("button.quote-post"), function (b) {
      b.addEventListener("click", function () { quote(b); });
    });
    Array.prototype.forEach.call(document.querySelectorAll("button.forum-action"), function (b) {
      b.addEventListener("click", function () {
        var confirmText = b.getAttribute("data-confirm");
        if (confirmText && !window.confirm(confirmText)) return;
        var body = b.getAttribute("data-body");
        b.disabled = true;
        send(b, b.getAttribute("data-method") || "POST", b.getAttribute("data-api"), body ? JSON.parse(body) : undefined)
          .then(function () { b.disabled = false; });
      });
    });
    Array.prototype.forEach.call(document.querySelectorAll("form.hide-form"), function (f) {
      f.addEventListener("submit", function (e) {
        e.preventDefault();
        send(f, "PUT", f.getAttribute("data-api"), { hidden: true, reason: f.elements.reason.value });
      });
    });
    var gm = document.getElementById("gm-form");
    if (gm) {
      gm.addEventListener("submit", function (e) {
        e.preventDefault();
        var game = gm.elements.game.value.trim();
        var url = gm.getAttribute("data-api-template").replace("{game}", encodeURIComponent(game));
        window.Chancery.api("POST", url, { account: gm.elements.account.value.trim() }).then(function (res) {
          var C = window.Chancery;
          if (!res.ok) {
            C.say(message(gm), C.errorText(res), true);
            return;
          }
          window.location.reload();
        });
      });
    }
  });
})();
