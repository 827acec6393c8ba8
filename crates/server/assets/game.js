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
    drawOrders();
  }
  // Set once the map is ready (below): redraws the viewer's orders on it.
  var drawOrders = function () {};
  var lastAccepted = null;

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
      lastAccepted = last ? last.words || last.order : null;
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
    C.api("GET", "/api/games/" + game.id + "/check-order?text=" + encodeURIComponent(text)).then(function (res) {
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

  // ---- The map. Pan and zoom (wheel, drag, pinch, buttons) by the SVG's viewBox; the
  // viewer's own orders drawn as the server draws them (`/orders/drawing`); orders by
  // clicking, with the unit's legal targets from the engine (`/targets`); and the
  // sandbox, where any unit is ordered and the result judged, never stored.
  var figure = document.querySelector("figure.map");
  var liveSvg = figure && figure.querySelector("svg");
  function svgNow() {
    return figure ? figure.querySelector("svg") : null;
  }
  function say(text, isError) {
    C.say(hint, text, isError);
  }

  // -- Pan and zoom.
  var suppressClick = false;
  function boxOf(svg) {
    if (!svg._base) {
      var vb = svg.viewBox.baseVal;
      svg._base = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
      svg._box = { x: vb.x, y: vb.y, w: vb.width, h: vb.height };
    }
    return svg._box;
  }
  // The deepest zoom puts four screen pixels on each map pixel, so that a unit (21 map
  // pixels across) is over 80 pixels wide and the narrowest space (1648's Candia, 11 map
  // pixels from north to south) over 44, whatever the screen.
  function maxZoom(svg) {
    var w = svg.getBoundingClientRect().width || 1;
    return Math.max(4, (4 * svg._base.w) / w);
  }
  function setBox(svg, b) {
    var base = svg._base;
    var w = Math.min(base.w, Math.max(base.w / maxZoom(svg), b.w));
    var h = (w * base.h) / base.w;
    var x = Math.min(base.x + base.w - w, Math.max(base.x, b.x));
    var y = Math.min(base.y + base.h - h, Math.max(base.y, b.y));
    svg._box = { x: x, y: y, w: w, h: h };
    svg.setAttribute("viewBox", x + " " + y + " " + w + " " + h);
    var zoom = base.w / w;
    figure.classList.toggle("zoomed", zoom > 1.01);
    figure.setAttribute("data-zoom", zoom.toFixed(2));
  }
  function toMap(svg, clientX, clientY) {
    var m = svg.getScreenCTM();
    if (!m) return { x: 0, y: 0 };
    var p = new DOMPoint(clientX, clientY).matrixTransform(m.inverse());
    return { x: p.x, y: p.y };
  }
  function zoomAt(factor, clientX, clientY) {
    var svg = svgNow();
    if (!svg) return false;
    var b = boxOf(svg);
    var r = svg.getBoundingClientRect();
    if (clientX === undefined) {
      clientX = r.left + r.width / 2;
      clientY = r.top + r.height / 2;
    }
    var p = toMap(svg, clientX, clientY);
    var w = Math.min(svg._base.w, Math.max(svg._base.w / maxZoom(svg), b.w / factor));
    if (Math.abs(w - b.w) < 1e-6) return false;
    var k = w / b.w;
    setBox(svg, { x: p.x - (p.x - b.x) * k, y: p.y - (p.y - b.y) * k, w: w });
    return true;
  }
  function panBy(svg, dxScreen, dyScreen) {
    var b = boxOf(svg);
    var r = svg.getBoundingClientRect();
    var scale = Math.max(b.w / (r.width || 1), b.h / (r.height || 1));
    setBox(svg, { x: b.x - dxScreen * scale, y: b.y - dyScreen * scale, w: b.w });
  }
  if (figure) {
    var zin = document.getElementById("zoom-in");
    var zout = document.getElementById("zoom-out");
    var zreset = document.getElementById("zoom-reset");
    if (zin) zin.addEventListener("click", function () { zoomAt(1.6); });
    if (zout) zout.addEventListener("click", function () { zoomAt(1 / 1.6); });
    if (zreset) {
      zreset.addEventListener("click", function () {
        var svg = svgNow();
        if (svg) { boxOf(svg); setBox(svg, svg._base); }
      });
    }
    // The wheel zooms; turned outwards on the whole map, it scrolls the page as usual.
    figure.addEventListener("wheel", function (e) {
      if (zoomAt(Math.exp(-e.deltaY * 0.0015), e.clientX, e.clientY)) e.preventDefault();
    }, { passive: false });
    var pointers = {};
    var drag = null;
    figure.addEventListener("pointerdown", function (e) {
      if (e.button !== undefined && e.button !== 0 && e.pointerType === "mouse") return;
      pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
      var ids = Object.keys(pointers);
      if (ids.length === 1) drag = { x: e.clientX, y: e.clientY, moved: false };
      else drag = { pinch: true, moved: true };
    });
    figure.addEventListener("pointermove", function (e) {
      var prev = pointers[e.pointerId];
      if (!prev || !drag) return;
      var svg = svgNow();
      var ids = Object.keys(pointers);
      if (ids.length >= 2) {
        var a = pointers[ids[0]], b = pointers[ids[1]];
        var d0 = Math.hypot(a.x - b.x, a.y - b.y);
        pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
        a = pointers[ids[0]]; b = pointers[ids[1]];
        var d1 = Math.hypot(a.x - b.x, a.y - b.y);
        if (d0 > 0 && svg) zoomAt(d1 / d0, (a.x + b.x) / 2, (a.y + b.y) / 2);
        e.preventDefault();
        return;
      }
      if (!drag.moved && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) < 8) return;
      if (!figure.classList.contains("zoomed")) return;
      drag.moved = true;
      if (svg) panBy(svg, e.clientX - prev.x, e.clientY - prev.y);
      pointers[e.pointerId] = { x: e.clientX, y: e.clientY };
      e.preventDefault();
    });
    function up(e) {
      delete pointers[e.pointerId];
      if (drag && drag.moved) suppressClick = true;
      if (Object.keys(pointers).length === 0) {
        drag = null;
        window.setTimeout(function () { suppressClick = false; }, 0);
      }
    }
    figure.addEventListener("pointerup", up);
    figure.addEventListener("pointercancel", up);
  }

  // -- The viewer's orders, drawn as the server draws them, under the units.
  function place(svg, text) {
    var doc = new DOMParser().parseFromString('<svg xmlns="http://www.w3.org/2000/svg">' + text + "</svg>", "image/svg+xml");
    var g = doc.documentElement && doc.documentElement.firstElementChild;
    var old = svg.querySelector("g.orders.pending");
    if (old) old.parentNode.removeChild(old);
    var units = svg.querySelector("g.units");
    if (!g || !units) return;
    units.parentNode.insertBefore(document.importNode(g, true), units);
  }
  drawOrders = function () {
    if (!game.power || !liveSvg || game.status !== "active") return;
    C.api("GET", base + "/orders/drawing").then(function (res) {
      if (res.ok) place(liveSvg, res.data.svg);
    });
  };
  drawOrders();

  // -- Orders by clicking. Movement: a unit (its legal moves are lit), then where it
  // goes (the unit again: hold); or Support…, Convoy… or Board… and then the unit and
  // the space. Retreat: a dislodged unit, then where it goes, or Disband. Adjustment:
  // a lit home centre to build, a unit to remove, or Waive.
  var sandbox = { on: false };
  var sel = null;

  function units() {
    var svg = svgNow();
    return svg ? svg.querySelectorAll("g.units g.unit") : [];
  }
  function unitText(el) {
    return el.getAttribute("data-unit");
  }
  function provinceOf(name) {
    return String(name).split(" ").pop().split("/")[0];
  }
  function mine(el) {
    return game.controls.indexOf(el.getAttribute("data-power")) >= 0;
  }
  function orderable(el) {
    if (game.status !== "active") return false;
    if (!sandbox.on && (!form || !mine(el))) return false;
    var dislodged = el.classList.contains("dislodged");
    return game.kind === "M" ? !dislodged : game.kind === "R" ? dislodged : false;
  }
  function clearLit() {
    var svg = svgNow();
    if (!svg) return;
    Array.prototype.forEach.call(svg.querySelectorAll(".target, .target-unit"), function (el) {
      el.classList.remove("target");
      el.classList.remove("target-unit");
    });
  }
  function light(spaces, unitNames) {
    clearLit();
    var svg = svgNow();
    if (!svg) return;
    (spaces || []).forEach(function (s) {
      var cell = svg.querySelector('path.space[data-space="' + provinceOf(s) + '"]');
      if (cell) cell.classList.add("target");
    });
    (unitNames || []).forEach(function (u) {
      Array.prototype.forEach.call(svg.querySelectorAll("g.units g.unit"), function (el) {
        if (unitText(el) === u && !el.classList.contains("dislodged")) el.classList.add("target-unit");
      });
    });
  }
  function clearSelection() {
    if (sel) sel.el.classList.remove("selected");
    sel = null;
    clearLit();
  }

  // Sends the order (or, in the sandbox, writes it on the sandbox's list).
  function send(text) {
    // A keyboard user's focus was on a choice in the hint, which is about to go: it
    // goes back to the unit that was ordered.
    var back = sel && sel.el;
    var lost = hint.contains(document.activeElement);
    clearSelection();
    if (lost && back && back.getAttribute("tabindex") !== null) back.focus();
    if (sandbox.on) {
      sandboxAdd(text);
      say("Added to the sandbox: " + text + ".", false);
      return;
    }
    input.value = text;
    say("", false);
    submitOrder(text).then(function (ok) {
      if (ok) say("Order accepted: " + (lastAccepted || text) + ".", false);
      else say(message.textContent, true);
      // Winter: the sites stay offered for the next build.
      if (ok && adjusting && game.adjust.builds) {
        buildChoices();
      }
    });
  }
  // A click the listed orders do not allow: the engine says why (the order check, told
  // what was clicked), and sends the order it reads if it takes it after all.
  function explain(clicked) {
    if (sandbox.on) {
      // The sandbox orders any power's units; the check speaks for the player's own.
      say("Not possible: that is none of the orders the rules allow this unit. Esc cancels.", true);
      return;
    }
    var query = Object.keys(clicked).map(function (k) {
      return k + "=" + encodeURIComponent(clicked[k]);
    }).join("&");
    C.api("GET", "/api/games/" + game.id + "/check-order?" + query).then(function (res) {
      if (res.ok && res.data.ok) send(res.data.order);
      else say("Not possible: " + (res.ok ? res.data.error : C.errorText(res)) + " Esc cancels.", true);
    });
  }
  function button(label, cls, fn, mode) {
    var b = document.createElement("button");
    b.type = "button";
    b.className = "secondary mode-choice " + (cls || "");
    if (mode) b.setAttribute("data-mode", mode);
    b.textContent = label;
    b.addEventListener("click", fn);
    return b;
  }
  // Each lit choice also as a named button in the hint, so that a keyboard or a screen
  // reader can give every order without aiming at the map.
  function placeName(loc) {
    var svg = svgNow();
    var title = svg && svg.querySelector('path.space[data-space="' + provinceOf(loc) + '"] title');
    var coast = String(loc).split("/")[1];
    var name = title ? title.textContent : provinceOf(loc);
    return coast ? name + " (" + coast + ")" : name;
  }
  function unitWords(text) {
    var parts = String(text).split(" ");
    return (parts[0] === "F" ? "Fleet " : "Army ") + placeName(parts[parts.length - 1]);
  }
  function unitEl(text) {
    return Array.prototype.filter.call(units(), function (el) {
      return unitText(el) === text && !el.classList.contains("dislodged");
    })[0];
  }
  function choices(label, items) {
    if (!items.length) return;
    items = items.slice().sort(function (a, b) {
      return (b.first ? 1 : 0) - (a.first ? 1 : 0) || a.label.localeCompare(b.label);
    });
    var group = document.createElement("span");
    group.className = "choices";
    group.setAttribute("role", "group");
    group.setAttribute("aria-label", label);
    group.appendChild(document.createTextNode(" " + label + ": "));
    items.forEach(function (it) {
      group.appendChild(button(it.label, "target-choice", it.go));
      group.appendChild(document.createTextNode(" "));
    });
    hint.appendChild(group);
  }
  // A keyboard user's focus follows the choices: to the first one when the unit was
  // chosen by keyboard, or when the choice just made (a button in the hint) is replaced.
  var viaKeyboard = false;
  function focusFirst(css) {
    var first = hint.querySelector(css);
    if (first) first.focus();
  }
  function focusChoice() {
    if (!viaKeyboard) return;
    viaKeyboard = false;
    focusFirst("button");
  }
  function modes() {
    var t = sel.targets;
    var me = unitText(sel.el);
    var out = [];
    if (game.kind === "R") {
      if (t.disband) out.push(button("Disband", "mode-disband", function () { send(t.disband); }, "disband"));
      return out;
    }
    if (t.hold) out.push(button("Hold", "mode-hold", function () { send(t.hold); }, "hold"));
    out.push(button("Support…", "mode-support", function () { setMode("support"); }, "support"));
    if (t.convoys_exist && me.charAt(0) === "F") out.push(button("Convoy…", "mode-convoy", function () { setMode("convoy"); }, "convoy"));
    if (t.boarding) out.push(button("Board…", "mode-board", function () { setMode("board"); }, "board"));
    return out;
  }
  function setMode(mode) {
    if (!sel) return;
    var had = hint.contains(document.activeElement);
    sel.mode = mode;
    sel.target = null;
    var t = sel.targets;
    var me = unitText(sel.el);
    if (mode === "support") {
      var names = t.support_holds.map(function (h) { return h.unit; });
      t.supports.forEach(function (a) { if (names.indexOf(a.unit) < 0) names.push(a.unit); });
      light([], names);
      say(names.length ? "Click the unit " + me + " supports (lit). Esc cancels." : me + " can support no unit from here. Esc cancels.", !names.length);
      choices("Support", names.map(function (n) {
        return { label: unitWords(n), go: function () { clickWhileSelected(unitEl(n), null); } };
      }));
    } else if (mode === "convoy") {
      var armies = [];
      t.convoys.forEach(function (a) { if (armies.indexOf(a.unit) < 0) armies.push(a.unit); });
      light([], armies);
      say(armies.length ? "Click the army " + me + " convoys (lit). Esc cancels." : me + " can convoy no army from here. Esc cancels.", !armies.length);
      choices("Convoy", armies.map(function (n) {
        return { label: unitWords(n), go: function () { clickWhileSelected(unitEl(n), null); } };
      }));
    } else if (mode === "board") {
      light(t.boards.map(function (b) { return b.to; }), t.board_here ? [me] : []);
      say("Click where " + me + " moves to board (lit), or " + me + " again to board where it stands. Esc cancels.", false);
      var boards = t.boards.map(function (b) {
        return { label: placeName(b.to), go: function () { send(b.order); } };
      });
      if (t.board_here) boards.unshift({ label: "Where it stands", first: true, go: function () { send(t.board_here); } });
      choices("Board", boards);
    }
    if (had) focusFirst(".choices button");
  }
  function choose(el) {
    clearSelection();
    var me = unitText(el);
    sel = { el: el, mode: "move", target: null, targets: null };
    el.classList.add("selected");
    if (!sandbox.on && input) input.value = me + " ";
    say("Finding where " + me + " may go…", false);
    var url = base + "/targets?unit=" + encodeURIComponent(me) + (sandbox.on ? "&any=true" : "");
    C.api("GET", url).then(function (res) {
      if (!sel || sel.el !== el) return;
      if (!res.ok) {
        say(C.errorText(res), true);
        return;
      }
      sel.targets = res.data;
      light(res.data.moves.map(function (m) { return m.to; }), []);
      var verb = game.kind === "R" ? "the space it should retreat to" : "where it moves";
      say(unitWords(me) + " (" + me + ") selected: click " + verb + " (lit)" + (game.kind === "M" ? ", or the unit again to hold" : "") + ". Or: ", false);
      modes().forEach(function (b) { hint.appendChild(b); });
      choices(game.kind === "R" ? "Retreat to" : "Move to", res.data.moves.map(function (m) {
        return { label: placeName(m.to), go: function () { send(m.order); } };
      }));
      focusChoice();
    });
  }
  // Which of the listed orders in `list` go to `province`: one to send, several
  // (coasts) to choose from.
  function within(list, province) {
    return list.filter(function (l) { return provinceOf(l.to) === province; });
  }
  function offerCoasts(options) {
    say("Which coast? ", false);
    options.forEach(function (o) {
      hint.appendChild(button(o.to, "coast-choice", function () { send(o.order); }));
    });
  }
  function clickWhileSelected(unit, space) {
    var me = unitText(sel.el);
    var t = sel.targets;
    if (!t) return;
    var dest = unit ? provinceOf(unitText(unit)) : space ? space.getAttribute("data-space") : null;
    if (sel.mode === "move") {
      if (unit === sel.el) {
        if (t.hold) send(t.hold);
        return;
      }
      if (!dest) return;
      var ok = within(t.moves, dest);
      if (ok.length === 1) send(ok[0].order);
      else if (ok.length > 1) offerCoasts(ok);
      else explain({ unit: me, action: game.kind === "R" ? "retreat" : "move", to: dest });
      return;
    }
    if (sel.mode === "board") {
      if (unit === sel.el) {
        if (t.board_here) send(t.board_here);
        else explain({ unit: me, action: "board" });
        return;
      }
      if (!dest) return;
      var b = within(t.boards, dest);
      if (b.length) send(b[0].order);
      else explain({ unit: me, action: "board", to: dest });
      return;
    }
    var list = sel.mode === "support" ? t.supports : t.convoys;
    var had = hint.contains(document.activeElement);
    if (!sel.target) {
      if (!unit || unit === sel.el) return;
      var them = unitText(unit);
      var dests = list.filter(function (a) { return a.unit === them; });
      var holds = sel.mode === "support" && t.support_holds.filter(function (h) { return h.unit === them; })[0];
      if (!dests.length && !holds) {
        explain({ unit: me, action: sel.mode, target: them, to: provinceOf(them) });
        return;
      }
      sel.target = them;
      light(dests.map(function (d) { return d.to; }), holds ? [them] : []);
      say("Click where " + them + " moves (lit)" + (holds ? ", or " + them + " again to support it holding" : "") + ". Esc cancels.", false);
      var to = dests.map(function (d) {
        return { label: placeName(d.to), go: function () { send(d.order); } };
      });
      if (holds) to.unshift({ label: "Holding where it stands", first: true, go: function () { send(holds.order); } });
      choices(sel.mode === "support" ? "Support it" : "Convoy it to", to);
      if (had) focusFirst(".choices button");
      return;
    }
    if (unit && unitText(unit) === sel.target) {
      var held = t.support_holds.filter(function (h) { return h.unit === sel.target; })[0];
      if (sel.mode === "support" && held) send(held.order);
      return;
    }
    if (!dest) return;
    var ok2 = within(list.filter(function (a) { return a.unit === sel.target; }), dest);
    if (ok2.length === 1) send(ok2[0].order);
    else if (ok2.length > 1) offerCoasts(ok2);
    else explain({ unit: me, action: sel.mode, target: sel.target, to: dest });
  }
  function describe(unit) {
    var kind = unitText(unit).charAt(0) === "F" ? "fleet" : "army";
    return unitText(unit) + " is " + unit.getAttribute("data-power") + "'s " + kind;
  }

  // Builds and removals: the server lists the build sites with the orders the engine
  // accepts there; a space with a choice (army or fleet, which coast) asks which.
  var sites = {};
  var adjusting = !!(figure && form && game.kind === "A" && game.adjust && game.status === "active");
  function offer(orders) {
    say("Build: ", false);
    orders.forEach(function (o, i) {
      var b = button(o, "build-choice", function () { send(o); });
      hint.appendChild(b);
      if (i === 0) b.focus();
    });
  }
  function adjustClick(unit, space) {
    if (unit && game.adjust.removals && mine(unit)) {
      var removal = (game.adjust.units || []).filter(function (r) { return r.unit === unitText(unit); })[0];
      if (removal) send(removal.order);
      return;
    }
    var orders = space && sites[space.getAttribute("data-space")];
    if (orders) {
      if (orders.length === 1) send(orders[0]);
      else offer(orders);
    } else if (unit) {
      say(mine(unit) ? "You have no unit to remove this winter." : describe(unit) + ": you remove only your own units.", true);
    } else if (space && game.adjust.builds) {
      say("No build there: builds go on your own home centres that are empty (lit).", true);
    }
  }
  function markSites() {
    var svg = svgNow();
    if (!svg || !adjusting) return;
    (game.adjust.sites || []).forEach(function (s) {
      sites[s.space] = s.orders;
      var cell = svg.querySelector('path.space[data-space="' + s.space + '"]');
      if (cell) cell.classList.add("build-site");
    });
  }
  function buildChoices() {
    choices("Build at", (game.adjust.sites || []).map(function (s) {
      return { label: placeName(s.space), go: function () { if (s.orders.length === 1) send(s.orders[0]); else offer(s.orders); } };
    }));
  }
  function adjustHint() {
    if (game.adjust.removals) {
      say("You must remove " + game.adjust.removals + " unit" + (game.adjust.removals > 1 ? "s" : "") + ": click the one to remove.", false);
    } else if (game.adjust.builds) {
      say("You may build " + game.adjust.builds + " unit" + (game.adjust.builds > 1 ? "s" : "") + ": click a lit home centre, or ", false);
      if (game.adjust.waive) hint.appendChild(button("Waive a build", "mode-waive", function () { send(game.adjust.waive); }));
      buildChoices();
    }
  }

  function prepare() {
    var svg = svgNow();
    if (!svg) return;
    svg.classList.add("clickable");
    Array.prototype.forEach.call(units(), function (el) {
      var yes = orderable(el) || (adjusting && game.adjust.removals && mine(el));
      el.classList.toggle("own", !!yes);
      if (yes) {
        el.setAttribute("tabindex", "0");
        el.setAttribute("role", "button");
        el.setAttribute("aria-label", (adjusting && !sandbox.on ? "Remove " : "Give an order to ") + unitWords(unitText(el)) + " (" + unitText(el) + ")");
      } else {
        el.removeAttribute("tabindex");
        el.removeAttribute("role");
        el.removeAttribute("aria-label");
      }
    });
    markSites();
  }

  if (figure) {
    prepare();
    if (adjusting) adjustHint();
    figure.addEventListener("click", function (e) {
      if (suppressClick) {
        suppressClick = false;
        return;
      }
      if (!svgNow() || !e.target.closest) return;
      var unit = e.target.closest("g.unit");
      var space = e.target.closest("[data-space]");
      if (sandbox.result) return;
      if (adjusting && !sandbox.on) {
        adjustClick(unit, space);
        return;
      }
      if (sel) {
        clickWhileSelected(unit, space);
        return;
      }
      if (!unit) return;
      if (orderable(unit)) {
        choose(unit);
      } else if (game.status !== "active") {
        say(describe(unit) + ".", false);
      } else if (form && !mine(unit)) {
        say(describe(unit) + ": you give orders only to your own units. To try orders for any unit, use the sandbox.", true);
      } else if (!form && !sandbox.on) {
        say(describe(unit) + "." + (document.getElementById("sandbox-mode") ? " To try orders for it, turn on the sandbox." : ""), false);
      } else {
        say(game.kind === "R" ? "Only a dislodged unit (ringed in red) retreats." : game.kind === "A" ? "Winter: units are not ordered." : describe(unit) + ".", true);
      }
    });
    figure.addEventListener("keydown", function (e) {
      var unit = e.target.closest && e.target.closest("g.unit");
      if ((e.key === "Enter" || e.key === " ") && unit) {
        e.preventDefault();
        viaKeyboard = true;
        unit.dispatchEvent(new MouseEvent("click", { bubbles: true }));
      }
    });
    document.addEventListener("keydown", function (e) {
      if (e.key === "Escape" && sel) {
        clearSelection();
        say("Selection cancelled.", false);
      }
    });
  }

  // -- The sandbox: orders for any unit, judged by the server on this position and
  // drawn; nothing is stored, and the live map comes back with one click.
  var sbBox = document.getElementById("sandbox-orders");
  var sbMode = document.getElementById("sandbox-mode");
  var sbRun = document.getElementById("sandbox-run");
  var sbLive = document.getElementById("sandbox-live");
  var sbMessage = document.getElementById("sandbox-message");
  var sbResults = document.getElementById("sandbox-results");
  function sandboxAdd(text) {
    if (!sbBox) return;
    var unit = text.split(/ (?:-|S|C|R|H|D|B)\b/)[0].toLowerCase();
    var lines = sbBox.value.split("\n").filter(function (l) {
      return l.trim() && l.trim().toLowerCase().indexOf(unit + " ") !== 0;
    });
    lines.push(text);
    sbBox.value = lines.join("\n");
  }
  function showLive() {
    if (!figure || !liveSvg) return;
    var svg = svgNow();
    if (svg !== liveSvg) figure.replaceChild(liveSvg, svg);
    sandbox.result = false;
    if (sbLive) sbLive.hidden = true;
    figure.classList.remove("sandboxed");
    prepare();
  }
  function cell(tr, text, tag) {
    var td = document.createElement(tag || "td");
    td.textContent = text;
    tr.appendChild(td);
    return td;
  }
  function showResults(d) {
    sbResults.textContent = "";
    var table = document.createElement("table");
    table.className = "results sandbox-table";
    var head = document.createElement("tr");
    ["Power", "Unit", "Order", "Result"].forEach(function (h) { cell(head, h, "th").setAttribute("scope", "col"); });
    var thead = document.createElement("thead");
    thead.appendChild(head);
    table.appendChild(thead);
    var body = document.createElement("tbody");
    // The units given an order, then a line for those left to hold, so that a phone
    // shows the plan's results rather than a page of "held".
    var idle = d.results.filter(function (r) { return !r.order && r.succeeded; });
    d.results.filter(function (r) { return idle.indexOf(r) < 0; }).forEach(function (r) {
      var tr = document.createElement("tr");
      tr.className = r.succeeded ? "succeeded" : "failed";
      cell(tr, r.power);
      cell(tr, r.unit);
      cell(tr, r.order || "(no order: holds)");
      cell(tr, (r.succeeded ? "✓ succeeded: " : "✗ failed: ") + r.outcome);
      body.appendChild(tr);
    });
    table.appendChild(body);
    sbResults.appendChild(table);
    if (idle.length) {
      var rest = document.createElement("p");
      rest.className = "note sandbox-idle";
      rest.textContent = idle.length + " other unit" + (idle.length > 1 ? "s" : "") + " had no order and held: " +
        idle.map(function (r) { return r.unit; }).join(", ") + ".";
      sbResults.appendChild(rest);
    }
    if (d.refused.length) {
      var ul = document.createElement("ul");
      ul.className = "sandbox-refused";
      d.refused.forEach(function (r) {
        var li = document.createElement("li");
        li.textContent = "Refused: " + r.order + " — " + r.error;
        ul.appendChild(li);
      });
      sbResults.insertBefore(ul, table);
    }
    sbResults.hidden = false;
  }
  if (sbRun && sbBox) {
    if (sbMode) {
      sbMode.addEventListener("click", function () {
        sandbox.on = sbMode.getAttribute("aria-pressed") !== "true";
        sbMode.setAttribute("aria-pressed", sandbox.on ? "true" : "false");
        sbMode.textContent = sandbox.on ? "Ordering any unit ✓ (click to stop)" : "Order any unit on the map";
        clearSelection();
        showLive();
        say(sandbox.on ? "Sandbox: click any unit to write an order for it on the sandbox's list." : "", false);
      });
    }
    sbRun.addEventListener("click", function () {
      var lines = sbBox.value.split("\n").map(function (l) { return l.trim(); }).filter(Boolean);
      C.say(sbMessage, "Adjudicating…", false);
      C.api("POST", base + "/sandbox", { orders: lines }).then(function (res) {
        if (!res.ok) {
          C.say(sbMessage, C.errorText(res), true);
          return;
        }
        var d = res.data;
        clearSelection();
        var doc = new DOMParser().parseFromString(d.svg, "image/svg+xml");
        var svg = document.importNode(doc.documentElement, true);
        figure.replaceChild(svg, svgNow());
        svg.classList.add("clickable");
        sandbox.result = true;
        figure.classList.add("sandboxed");
        if (sbLive) sbLive.hidden = false;
        showResults(d);
        C.say(sbMessage, "The sandbox's result for " + d.phase + " (never stored): the map shows it" + (d.refused.length ? "; " + d.refused.length + " order" + (d.refused.length > 1 ? "s" : "") + " refused" : "") + ".", false);
      });
    });
    if (sbLive) sbLive.addEventListener("click", function () {
      showLive();
      C.say(sbMessage, "Back to the live map.", false);
    });
    document.getElementById("sandbox-clear").addEventListener("click", function () {
      sbBox.value = "";
      sbResults.hidden = true;
      showLive();
      C.say(sbMessage, "", false);
    });
  }

  // ---- A page left open learns when the game moves on (a deadline, the GM, the last
  // ready mark) and offers to reload rather than keep showing an old position.
  function showStale(phaseName) {
    var stale = document.getElementById("stale");
    if (!stale || !stale.hidden) return;
    stale.hidden = false;
    stale.textContent = "The game has moved on to " + phaseName + ". ";
    var a = document.createElement("a");
    a.href = window.location.pathname;
    a.textContent = "Show the new position";
    stale.appendChild(a);
  }
  // A change refused because it named a phase that is over: offer the new position at once.
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

  // ---- Press: the server keeps each reader's marks (so a thread read on the phone is
  // read on the desktop too). A thread's "new" badge comes with the page; opening the
  // thread marks it read up to the newest message shown.
  function unread() {
    var press = document.querySelector("section.press[data-game]");
    if (!press) return;
    function read(body, done) {
      C.api("POST", base + "/press/read", body).then(function (res) {
        if (res.ok) done(res.data);
      });
    }
    function clear(d) {
      var badge = d.querySelector(".new-badge");
      if (badge) badge.hidden = true;
    }
    Array.prototype.forEach.call(press.querySelectorAll("details.thread"), function (d) {
      var badge = d.querySelector(".new-badge");
      var last = d.getAttribute("data-last-ms");
      function seen() {
        if (!badge || badge.hidden || !last) return;
        read({ thread: d.getAttribute("data-thread"), up_to_ms: Number(last) }, function () { clear(d); });
      }
      if (d.open) seen();
      d.addEventListener("toggle", function () {
        if (d.open) seen();
      });
    });
    var all = document.getElementById("press-mark-all");
    if (all) {
      all.addEventListener("click", function () {
        // Up to the newest message this page shows, not to now: one sent since is new.
        var newest = 0;
        Array.prototype.forEach.call(press.querySelectorAll("details.thread[data-last-ms]"), function (d) {
          newest = Math.max(newest, Number(d.getAttribute("data-last-ms")));
        });
        read({ up_to_ms: newest }, function () {
          Array.prototype.forEach.call(press.querySelectorAll("details.thread"), clear);
          all.hidden = true;
          var note = document.getElementById("unread");
          if (note) note.hidden = true;
        });
      });
    }
  }
  unread();
})();
