// The game page: orders typed (checked by the engine as you type) or clicked on the
// map, DP bids, and the ready mark.
(function () {
  "use strict";
  var C = window.Chancery;
  var dataEl = document.getElementById("game-data");
  if (!dataEl) return;
  var game = JSON.parse(dataEl.textContent);
  var base = "/api/games/" + game.id;

  // ---- Orders.
  var form = document.getElementById("order-form");
  var input = document.getElementById("order-text");
  var message = document.getElementById("order-message");
  var list = document.getElementById("orders");
  var hint = document.getElementById("map-hint");
  var checkTimer = null;
  var checkSeq = 0;
  // Orders, bids and the ready mark name the phase this page shows (`seq`); the server
  // refuses them with 409 and the current phase once the game has moved on.
  var phaseParam = "&seq=" + game.seq;

  function renderOrders(orders) {
    if (!list) return;
    list.textContent = "";
    orders.forEach(function (o) {
      var li = document.createElement("li");
      var said = document.createElement("span");
      said.className = "order-words";
      said.textContent = o.words || o.order;
      var span = document.createElement("span");
      span.className = "order-text";
      span.textContent = o.order;
      var b = document.createElement("button");
      b.type = "button";
      b.className = "link remove-order";
      b.setAttribute("data-unit", o.unit);
      b.setAttribute("aria-label", "Remove the order " + (o.words || o.order));
      b.textContent = "Remove";
      li.appendChild(said);
      li.appendChild(span);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(b);
      list.appendChild(li);
    });
    var none = document.getElementById("no-orders");
    if (none) none.hidden = orders.length > 0;
  }

  function submitOrder(text) {
    // A check still waiting to run would answer for the text just sent (or for the
    // emptied field) and wipe the verdict below.
    window.clearTimeout(checkTimer);
    checkSeq++;
    C.say(message, "Sending " + text + "…", false);
    return C.api("POST", base + "/orders", { orders: [text], seq: game.seq }).then(function (res) {
      if (!res.ok) {
        movedOn(res);
        C.say(message, C.errorText(res), true);
        return false;
      }
      renderOrders(res.data.orders || []);
      var last = (res.data.orders || []).filter(function (o) {
        return o.order.toLowerCase() === text.toLowerCase();
      })[0];
      C.say(message, "Order accepted" + (last ? ": " + (last.words || last.order) : "."), false);
      input.value = "";
      return true;
    });
  }

  // The engine's verdict while typing, so a mistake shows before it is sent.
  function check() {
    var text = input.value.trim();
    var mine = ++checkSeq;
    if (!text) {
      C.say(message, "", false);
      return;
    }
    C.api("GET", "/games/" + game.id + "/check-order?text=" + encodeURIComponent(text)).then(function (res) {
      if (mine !== checkSeq) return;
      if (!res.ok) C.say(message, C.errorText(res), true);
      else if (res.data.ok) C.say(message, "Reads as: " + res.data.words + " (" + res.data.order + "; press Enter to add it)", false);
      else C.say(message, res.data.error, true);
    });
  }

  if (form) {
    form.addEventListener("submit", function (e) {
      e.preventDefault();
      var text = input.value.trim();
      if (text) submitOrder(text);
    });
    input.addEventListener("input", function () {
      window.clearTimeout(checkTimer);
      checkTimer = window.setTimeout(check, 250);
    });
  }
  if (list) {
    list.addEventListener("click", function (e) {
      var b = e.target.closest(".remove-order");
      if (!b) return;
      C.api("DELETE", base + "/orders?unit=" + encodeURIComponent(b.getAttribute("data-unit")) + phaseParam).then(function (res) {
        movedOn(res);
        if (!res.ok) C.say(message, C.errorText(res), true);
        else {
          renderOrders(res.data.orders || []);
          C.say(message, "Order removed.", false);
        }
      });
    });
  }

  // ---- Orders in words, or abbreviated on request.
  var abbreviations = document.getElementById("abbreviations");
  if (abbreviations && list) {
    abbreviations.addEventListener("click", function () {
      var abbreviated = list.classList.toggle("in-words") === false;
      abbreviations.setAttribute("aria-pressed", abbreviated ? "true" : "false");
      abbreviations.textContent = abbreviated ? "Show the orders in words" : "Show the orders abbreviated";
    });
  }

  // ---- A pasted block of orders: each line sent on its own, so that one refused
  // order does not stop the others, and each line's fate reported beside it.
  var pasteForm = document.getElementById("paste-form");
  if (pasteForm) {
    pasteForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var area = document.getElementById("paste-text");
      var report = document.getElementById("paste-report");
      var lines = area.value.split(/\r?\n/).map(function (l) { return l.trim(); }).filter(function (l) { return l; });
      report.textContent = "";
      var refused = [];
      function line(text, ok, said) {
        var li = document.createElement("li");
        li.className = ok ? "ok" : "error";
        li.textContent = (ok ? "✓ accepted: " : "✗ refused: ") + text + " — " + said;
        report.appendChild(li);
      }
      lines.reduce(function (done, text) {
        return done.then(function () {
          return C.api("POST", base + "/orders", { orders: [text], seq: game.seq }).then(function (res) {
            if (!res.ok) {
              movedOn(res);
              refused.push(text);
              line(text, false, C.errorText(res));
              return;
            }
            renderOrders(res.data.orders || []);
            var stored = (res.data.orders || []).filter(function (o) {
              return o.order.toLowerCase() === text.toLowerCase();
            })[0];
            line(text, true, stored ? stored.words : "stored");
          });
        });
      }, Promise.resolve()).then(function () {
        // The refused lines stay in the box to be corrected.
        area.value = refused.join("\n");
      });
    });
  }

  // ---- DP bids: a minor unit, 1 or 2 DPs, and the order bought for it.
  var bidForm = document.getElementById("bid-form");
  var bidList = document.getElementById("bids");
  var bidUnit = document.getElementById("bid-unit");
  var bidOrder = document.getElementById("bid-order");
  var bidMessage = document.getElementById("bid-message");

  function renderBids(bids) {
    bidList.textContent = "";
    bids.forEach(function (b) {
      var li = document.createElement("li");
      var span = document.createElement("span");
      span.className = "bid-text";
      span.textContent = b.dp + " DP: " + b.order;
      var x = document.createElement("button");
      x.type = "button";
      x.className = "link remove-bid";
      x.setAttribute("data-unit", b.unit);
      x.setAttribute("aria-label", "Remove the bid on " + b.order);
      x.textContent = "Remove";
      li.appendChild(span);
      li.appendChild(document.createTextNode(" "));
      li.appendChild(x);
      bidList.appendChild(li);
    });
    var none = document.getElementById("no-bids");
    if (none) none.hidden = bids.length > 0;
    // The summary above follows the bids: "Budget 3 DP · bid 2 · 1 left".
    var budget = document.getElementById("dp-budget");
    if (budget) {
      var spent = bids.reduce(function (n, b) { return n + b.dp; }, 0);
      document.getElementById("dp-bid").textContent = spent;
      document.getElementById("dp-left").textContent = Number(budget.getAttribute("data-dp")) - spent;
    }
  }

  // Starts the order with the picked unit, so only the action is left to type.
  function prefillBid() {
    var opt = bidUnit.options[bidUnit.selectedIndex];
    if (opt) bidOrder.value = opt.getAttribute("data-prefix") + " ";
  }

  if (bidForm && bidList) {
    prefillBid();
    bidUnit.addEventListener("change", function () {
      prefillBid();
      bidOrder.focus();
    });
    bidForm.addEventListener("submit", function (e) {
      e.preventDefault();
      var bid = {
        unit: bidUnit.value,
        dp: parseInt(document.getElementById("bid-dp").value, 10),
        order: bidOrder.value.trim()
      };
      C.say(bidMessage, "Sending…", false);
      C.api("POST", base + "/bids", { bids: [bid], seq: game.seq }).then(function (res) {
        if (!res.ok) {
          movedOn(res);
          C.say(bidMessage, C.errorText(res), true);
          return;
        }
        renderBids(res.data.bids || []);
        C.say(bidMessage, "Bid saved.", false);
        prefillBid();
      });
    });
    bidList.addEventListener("click", function (e) {
      var b = e.target.closest(".remove-bid");
      if (!b) return;
      C.api("DELETE", base + "/bids?unit=" + encodeURIComponent(b.getAttribute("data-unit")) + phaseParam).then(function (res) {
        movedOn(res);
        if (!res.ok) C.say(bidMessage, C.errorText(res), true);
        else {
          renderBids(res.data.bids || []);
          C.say(bidMessage, "Bid removed.", false);
        }
      });
    });
  }

  // ---- Toggles: the ready mark and the draw vote. POST sets, DELETE takes back; an
  // answer that ends the phase or the game reloads the page to show it.
  // `forPhase`: the request names the phase the page shows (the ready mark), so that a
  // click after the deadline is refused rather than counted for the next phase.
  function toggle(id, path, labels, ended, forPhase) {
    var button = document.getElementById(id);
    if (!button) return;
    var out = document.getElementById(id + "-message");
    button.addEventListener("click", function () {
      var on = button.getAttribute("aria-pressed") !== "true";
      var request = !forPhase
        ? C.api(on ? "POST" : "DELETE", base + path)
        : on
          ? C.api("POST", base + path, { seq: game.seq })
          : C.api("DELETE", base + path + "?seq=" + game.seq);
      request.then(function (res) {
        if (!res.ok) {
          movedOn(res);
          C.say(out, C.errorText(res), true);
          return;
        }
        var done = ended(res.data);
        if (done) {
          C.say(out, done, false);
          window.location.reload();
          return;
        }
        button.setAttribute("aria-pressed", on ? "true" : "false");
        button.textContent = on ? labels.on : labels.off;
        C.say(out, on ? labels.set : labels.unset, false);
      });
    });
  }
  toggle("ready", "/ready", {
    on: "Ready ✓ (click to take back)", off: "Mark ready",
    set: "Marked ready.", unset: "No longer ready."
  }, function (d) {
    return d.processed && "Everyone is ready: the phase has been processed.";
  }, true);
  toggle("draw-vote", "/draw-vote", {
    on: "Voted for a draw ✓ (click to take back)", off: "Vote for a draw",
    set: "Your vote is in.", unset: "Vote taken back."
  }, function (d) {
    return d.outcome && "Every survivor voted: the game is over (" + d.outcome + ").";
  });

  // ---- Orders by clicking. Movement: a unit, then where it goes (the unit again:
  // hold); or a unit, "Support…" or "Convoy…", the unit supported or convoyed, then its
  // destination (for a support, the unit again: support it holding). Retreat: a
  // dislodged unit, then where it goes.
  var svg = document.querySelector("figure.map svg");
  // The unit element chosen, what it is asked to do, and the unit it acts on.
  var sel = null;

  function mine(el) {
    return game.controls.indexOf(el.getAttribute("data-power")) >= 0;
  }
  function selectable(el) {
    if (!mine(el)) return false;
    var dislodged = el.classList.contains("dislodged");
    return game.kind === "M" ? !dislodged : game.kind === "R" ? dislodged : false;
  }
  function unitsLayer() {
    return svg ? svg.querySelectorAll("g.units g.unit") : [];
  }
  function unitText(el) {
    return el.getAttribute("data-unit");
  }
  function clearSelection() {
    if (sel) sel.el.classList.remove("selected");
    sel = null;
  }
  function send(text) {
    clearSelection();
    input.value = text;
    C.say(hint, "", false);
    submitOrder(text);
  }
  function modeButton(label, mode, prompt) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary mode-choice";
    b.textContent = label;
    b.setAttribute("data-mode", mode);
    b.addEventListener("click", function () {
      if (!sel) return;
      sel.mode = mode;
      C.say(hint, prompt + " Esc cancels.", false);
    });
    return b;
  }
  function choose(el) {
    clearSelection();
    sel = { el: el, mode: "move", target: null };
    el.classList.add("selected");
    var unit = unitText(el);
    // Keyboard users continue in the order field: the unit is already written there.
    input.value = unit + (game.kind === "R" ? " R " : " - ");
    if (game.kind === "R") {
      C.say(hint, unit + " selected: click the space it should retreat to. Esc cancels.", false);
      return;
    }
    C.say(hint, unit + " selected: click where it moves, or the unit again to hold. Or: ", false);
    hint.appendChild(modeButton("Support…", "support", "Click the unit " + unit + " supports."));
    if (unit.charAt(0) === "F") {
      hint.appendChild(modeButton("Convoy…", "convoy", "Click the army " + unit + " convoys."));
    }
  }
  function province(el) {
    return unitText(el).split(" ")[1];
  }

  if (svg && form && (game.kind === "M" || game.kind === "R") && game.status === "active") {
    svg.classList.add("clickable");
    Array.prototype.forEach.call(unitsLayer(), function (el) {
      if (!selectable(el)) return;
      el.classList.add("own");
      el.setAttribute("tabindex", "0");
      el.setAttribute("role", "button");
      el.setAttribute("aria-label", "Give an order to " + unitText(el));
    });
    svg.addEventListener("click", function (e) {
      var unit = e.target.closest("g.unit");
      var space = e.target.closest("[data-space]");
      if (!sel) {
        if (unit && selectable(unit)) choose(unit);
        return;
      }
      var me = unitText(sel.el);
      if (sel.mode === "move") {
        if (unit === sel.el) {
          if (game.kind === "M") send(me + " H");
        } else if (unit || space) {
          var dest = unit ? province(unit) : space.getAttribute("data-space");
          send(me + (game.kind === "R" ? " R " : " - ") + dest);
        }
        return;
      }
      var letter = sel.mode === "support" ? " S " : " C ";
      if (!sel.target) {
        if (!unit || unit === sel.el) return;
        sel.target = unitText(unit);
        C.say(hint, "Click where " + sel.target + " moves" + (sel.mode === "support" ? ", or " + sel.target + " again to support it holding" : "") + ". Esc cancels.", false);
        return;
      }
      if (unit && unitText(unit) === sel.target) {
        if (sel.mode === "support") send(me + letter + sel.target);
        return;
      }
      if (unit || space) send(me + letter + sel.target + " - " + (unit ? province(unit) : space.getAttribute("data-space")));
    });
    svg.addEventListener("keydown", function (e) {
      var unit = e.target.closest && e.target.closest("g.unit");
      if ((e.key === "Enter" || e.key === " ") && unit && selectable(unit)) {
        e.preventDefault();
        unit.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      }
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && sel) {
        clearSelection();
        C.say(hint, "Selection cancelled.", false);
      }
    });
  }

  // ---- Builds and removals by clicking: the server lists the build sites with the
  // orders the engine accepts there; a space with a choice (army or fleet, which coast)
  // asks which.
  function offer(orders) {
    hint.textContent = "Build: ";
    orders.forEach(function (o, i) {
      var b = document.createElement("button");
      b.type = "button";
      b.className = "secondary build-choice";
      b.textContent = o;
      b.addEventListener("click", function () {
        hint.textContent = "";
        input.value = o;
        submitOrder(o);
      });
      hint.appendChild(b);
      if (i === 0) b.focus();
    });
  }

  if (svg && form && game.kind === "A" && game.adjust && game.status === "active") {
    svg.classList.add("clickable");
    var sites = {};
    (game.adjust.sites || []).forEach(function (s) {
      sites[s.space] = s.orders;
      var cell = svg.querySelector('path.space[data-space="' + s.space + '"]');
      if (cell) cell.classList.add("build-site");
    });
    if (game.adjust.removals) {
      Array.prototype.forEach.call(unitsLayer(), function (el) {
        if (!mine(el)) return;
        el.classList.add("own");
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", "Remove " + el.getAttribute("data-unit"));
      });
      C.say(hint, "You must remove " + game.adjust.removals + " unit" + (game.adjust.removals > 1 ? "s" : "") + ": click the one to remove.", false);
    } else if (game.adjust.builds) {
      C.say(hint, "You may build " + game.adjust.builds + " unit" + (game.adjust.builds > 1 ? "s" : "") + ": click a highlighted home centre.", false);
    }
    svg.addEventListener("click", function (e) {
      var unit = e.target.closest("g.unit");
      if (unit && game.adjust.removals && mine(unit)) {
        var text = "Remove " + unit.getAttribute("data-unit");
        input.value = text;
        submitOrder(text);
        return;
      }
      var space = e.target.closest("[data-space]");
      var orders = space && sites[space.getAttribute("data-space")];
      if (!orders) return;
      if (orders.length === 1) {
        input.value = orders[0];
        submitOrder(orders[0]);
      } else {
        offer(orders);
      }
    });
    svg.addEventListener("keydown", function (e) {
      var unit = e.target.closest && e.target.closest("g.unit.own");
      if ((e.key === "Enter" || e.key === " ") && unit) {
        e.preventDefault();
        unit.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      }
    });
  }

  // ---- A page left open learns when the game moves on (a deadline, the GM, the last
  // ready mark) and offers to reload rather than keep showing an old board.
  function showStale(phaseName) {
    var stale = document.getElementById("stale");
    if (!stale || !stale.hidden) return;
    stale.hidden = false;
    stale.textContent = "The game has moved on to " + phaseName + ". ";
    var a = document.createElement("a");
    a.href = window.location.pathname;
    a.textContent = "Show the new board";
    stale.appendChild(a);
  }
  // A change refused because it named a phase that is over: offer the new board at once.
  function movedOn(res) {
    if (res.status === 409 && res.data && typeof res.data.seq === "number" && res.data.seq !== game.seq) {
      showStale(res.data.phase);
    }
  }
  function watch() {
    if (game.status !== "active" && game.status !== "paused") return;
    window.setInterval(function () {
      if (document.hidden) return;
      C.api("GET", base).then(function (res) {
        if (!res.ok || res.data.seq === game.seq) return;
        showStale(res.data.phase_name);
      });
    }, 20000);
  }
  watch();

  // ---- Press: a thread whose newest message this browser has not shown yet is marked
  // "new" until it is opened.
  function unread() {
    var press = document.querySelector("section.press[data-game]");
    if (!press) return;
    function store(key, value) {
      try {
        if (value === undefined) return window.localStorage.getItem(key);
        window.localStorage.setItem(key, value);
      } catch (e) {
        return null; // storage refused (private mode): no marks, nothing else lost
      }
      return null;
    }
    Array.prototype.forEach.call(press.querySelectorAll("details.thread"), function (d) {
      var last = d.getAttribute("data-last");
      var key = "chancery-seen:" + press.getAttribute("data-game") + ":" + d.getAttribute("data-thread");
      var badge = d.querySelector(".new-badge");
      function seen() {
        store(key, last);
        if (badge) badge.hidden = true;
      }
      if (!last) return;
      if (d.open) seen();
      else if (store(key) !== last && badge) badge.hidden = false;
      d.addEventListener("toggle", function () {
        if (d.open) seen();
      });
    });
  }
  unread();
})();
